import {
  type ClusterOpenOptions,
  clusterNodes,
  FaultProxy,
  masterPortOfKey,
  REDIS_CLUSTER_PORTS,
  withNode,
} from '../../src/index.js'

/** Every node of the cluster behind its own FaultProxy, and the address map that sends a client through them. */
export interface ProxiedCluster {
  readonly nodeAddressMap: NonNullable<ClusterOpenOptions['nodeAddressMap']>
  proxyOf(port: number): FaultProxy
  /** Connections open through every proxy. */
  connections(): number
  close(): Promise<void>
}

export async function proxyEveryNode(): Promise<ProxiedCluster> {
  const proxies = new Map<number, FaultProxy>()
  for (const port of REDIS_CLUSTER_PORTS) proxies.set(port, await FaultProxy.start(port))
  return {
    nodeAddressMap: Object.fromEntries(
      [...proxies].map(([port, proxy]) => [`127.0.0.1:${port}`, { host: '127.0.0.1', port: proxy.port }]),
    ),
    proxyOf: (port) => proxies.get(port) as FaultProxy,
    connections: () => [...proxies.values()].reduce((sum, proxy) => sum + proxy.connections, 0),
    close: async () => {
      await Promise.all([...proxies.values()].map((proxy) => proxy.close()))
    },
  }
}

/**
 * The last command (CLIENT LIST `cmd=`) of each connection that reached the node on `port` through
 * `proxy`: the node sees them coming from the proxy's upstream ports.
 */
export async function lastCommandsThrough(port: number, proxy: FaultProxy): Promise<string[]> {
  const ours = new Set(proxy.upstreamPorts().map((upstream) => `127.0.0.1:${upstream}`))
  const list = await withNode(port, (node) => node.sendCommand<string>(['CLIENT', 'LIST']))
  return list.split('\n').flatMap((line) => {
    const addr = /\baddr=(\S+)/.exec(line)?.[1]
    const cmd = /\bcmd=(\S+)/.exec(line)?.[1]
    return addr !== undefined && cmd !== undefined && ours.has(addr) ? [cmd] : []
  })
}

/** Resolves once `check()` holds, polling every 10 ms; rejects after `limitMs`. */
export async function until(check: () => boolean, limitMs: number, what: string): Promise<void> {
  const deadline = Date.now() + limitMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${limitMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/**
 * Runs `work` while the slot of `key` is being migrated from its master to another one, with `key`
 * absent from both (Redis Cluster specification, "Live reconfiguration": the source answers ASK for a
 * key it does not hold, the target accepts it after ASKING), then puts the slot back as it was.
 */
export async function whileSlotMigrates<T>(
  key: string,
  work: (source: number, target: number) => Promise<T>,
): Promise<T> {
  const sourcePort = await masterPortOfKey(key)
  const nodes = await clusterNodes(sourcePort)
  const source = nodes.find((node) => node.port === sourcePort)
  const target = nodes.find(
    (node) => node.role === 'master' && node.slotCount > 0 && node.port !== sourcePort,
  )
  if (source === undefined || target === undefined) throw new Error('the cluster has no second master')
  const slot = String(await withNode(sourcePort, (node) => node.sendCommand(['CLUSTER', 'KEYSLOT', key])))
  await withNode(target.port, (node) =>
    node.sendCommand(['CLUSTER', 'SETSLOT', slot, 'IMPORTING', source.id]),
  )
  await withNode(sourcePort, (node) => node.sendCommand(['CLUSTER', 'SETSLOT', slot, 'MIGRATING', target.id]))
  try {
    return await work(sourcePort, target.port)
  } finally {
    // A write that followed the ASK left the key on the target: remove it while the target still
    // accepts the slot after ASKING, or it would hold a key of a slot it does not own.
    await withNode(target.port, async (node) => {
      await node.sendCommand(['ASKING'])
      await node.sendCommand(['DEL', key])
      await node.sendCommand(['CLUSTER', 'SETSLOT', slot, 'STABLE'])
    })
    await withNode(sourcePort, (node) => node.sendCommand(['CLUSTER', 'SETSLOT', slot, 'STABLE']))
  }
}
