import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { Agent } from 'node:http'
import { promisify } from 'node:util'
import type { Framework } from '@authlab/servers'
import { sleep } from '../concurrency.js'
import { crashLine, type ServerProcess, startServer, stopServer } from '../fault/cell.js'
import { SessionLoad } from '../fault/load.js'
import { FaultProxy } from '../fault/proxy.js'
import { REDIS_CLUSTER_PORTS } from '../services.js'
import { clusterHealthy, clusterNodes, ensureCluster, nodePid, replicasOnline } from './control.js'

const run = promisify(execFile)

/**
 * - `kill`: `kill -9` one master; its replica is promoted; the old master is started again and rejoins
 *   as a replica;
 * - `pause`: `SIGSTOP` one master for longer than cluster-node-timeout (a failover happens), then `SIGCONT`;
 * - `reshard`: `redis-cli --cluster reshard` moves 1,000 slots from one master to another under load
 *   (the client sees MOVED and ASK replies: Redis Cluster specification, "Live reconfiguration");
 * - `partition`: the servers reach one master through the fault proxy, which black-holes it (the
 *   cluster bus is untouched, so there is no failover: the master is cut off from the clients only).
 */
export type ClusterFault = 'kill' | 'pause' | 'reshard' | 'partition'
export const CLUSTER_FAULTS: readonly ClusterFault[] = ['kill', 'pause', 'reshard', 'partition']

/**
 * `framework-default`: each framework's own save timing; `save-before-reply`: the route waits for the
 * store; `wait`: save-before-reply, and the store's write also waits for `WAIT 1 <ms>`.
 */
export type ClusterPattern = 'framework-default' | 'save-before-reply' | 'wait'
export const CLUSTER_PATTERNS: readonly ClusterPattern[] = ['framework-default', 'save-before-reply', 'wait']

/**
 * The client library under the session store: node-redis 6 (`createCluster`, under connect-redis 11)
 * or ioredis 6 (`Cluster`, under the store in src/stores/ioredis-cluster.ts).
 */
export type ClusterClient = 'node-redis' | 'ioredis'
export const CLUSTER_CLIENTS: readonly ClusterClient[] = ['node-redis', 'ioredis']
const CLIENT_STORE: Record<ClusterClient, string> = {
  'node-redis': 'redis-cluster',
  ioredis: 'redis-cluster-ioredis',
}

/** WAIT's timeout: a replica on loopback copies a write in well under a millisecond when it is healthy. */
export const WAIT_TIMEOUT_MS = 200

/** The node's cluster-node-timeout (scripts/redis-cluster.sh); a pause must outlast it to cause a failover. */
const NODE_TIMEOUT_MS = 2000

export interface ClusterFaultOptions {
  readonly fault: ClusterFault
  readonly pattern: ClusterPattern
  /** Module specifier of a hash package with `createHasher({ cost })`, loaded by the server processes. */
  readonly hasherModule: string
  /** The server processes, in round-robin order (default two of each framework). */
  readonly frameworks?: readonly Framework[]
  readonly clients?: number
  readonly requestTimeoutMs?: number
  /** Load before the fault, to measure the steady state. */
  readonly warmupMs?: number
  /** How long the load keeps running after the fault started: lingering failures must fall inside it. */
  readonly observeMs?: number
  /**
   * Longest the observation may run on (from the fault's start) while requests still fail: recovery is
   * then measured, not cut off by a window sized for an idle machine (default `observeMs`, no extension).
   */
  readonly maxObserveMs?: number
  /**
   * `kill` only: how long the killed master stays down after its replica took over, before it is
   * started again (default 0). While it is down nothing answers at its address, so a client that
   * waits for a MOVED reply to learn the new slot map never gets one.
   */
  readonly keepDownMs?: number
  /** The client library (default node-redis). */
  readonly client?: ClusterClient
  /** node-redis only: let the store rebuild its slot map on failures (ClusterOpenOptions.refreshOnFailure). */
  readonly refreshOnFailure?: boolean
}

export interface ClusterFaultReport {
  readonly fault: ClusterFault
  readonly pattern: ClusterPattern
  readonly frameworks: readonly Framework[]
  readonly client: ClusterClient
  readonly refreshOnFailure: boolean
  readonly keepDownMs: number
  /** Server processes that exited before they were asked to (must be 0). */
  readonly crashes: number
  readonly crash?: string
  readonly requests: number
  readonly ok: number
  readonly serverErrors: number
  readonly noAnswer: number
  /** Requests sent from the fault's start on that got a 5xx or no answer. */
  readonly failedAfterFault: number
  /**
   * Recovery at the client: from the fault's start to the last request that failed; 0 when none did,
   * null when requests still failed at the end of the observation window.
   */
  readonly recoveryMs: number | null
  readonly acknowledged: number
  readonly lost: number
  /** p50/p99 latency (ms) of the 2xx answers during the warm-up, before the fault. */
  readonly steadyP50Ms: number | null
  readonly steadyP99Ms: number | null
  /** What the fault did, e.g. which port was killed and which replica took over. */
  readonly detail: string
}

const SECRET = 'store-matrix-cluster-secret-of-32+chars'

function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number
}

/** A master that serves slots, chosen as the first by port so runs are repeatable. */
async function someMaster(): Promise<{ id: string; port: number }> {
  const masters = (await clusterNodes(REDIS_CLUSTER_PORTS[0] as number)).filter(
    (node) => node.role === 'master' && node.slotCount > 0 && !node.failing,
  )
  const master = masters.sort((a, b) => a.port - b.port)[0]
  if (master === undefined) throw new Error('the cluster has no healthy master')
  return master
}

async function waitUntil(check: () => Promise<boolean>, limitMs: number, what: string): Promise<void> {
  const deadline = Date.now() + limitMs
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${limitMs} ms`)
    await sleep(200)
  }
}

/** True when another node now serves the slots `port` had (its replica was promoted). */
async function failedOver(port: number, viaPort: number): Promise<boolean> {
  const nodes = await clusterNodes(viaPort)
  const old = nodes.find((node) => node.port === port)
  return (
    old !== undefined &&
    old.slotCount === 0 &&
    nodes.filter((n) => n.role === 'master' && n.slotCount > 0 && !n.failing).length === 3
  )
}

/**
 * Runs one fault under load across several server processes on the cluster, and leaves the cluster
 * healthy again (every slot with a master, every node back) before it returns, whatever happened.
 */
export async function runClusterFault(options: ClusterFaultOptions): Promise<ClusterFaultReport> {
  const {
    fault,
    pattern,
    frameworks = ['express', 'fastify', 'express', 'fastify'],
    clients = 8,
    requestTimeoutMs = 2000,
    warmupMs = 2000,
    observeMs = 12_000,
    client = 'node-redis',
    keepDownMs = 0,
  } = options
  const refreshOnFailure = client === 'node-redis' && (options.refreshOnFailure ?? true)
  await ensureCluster()
  const master = await someMaster()
  const proxy = fault === 'partition' ? await FaultProxy.start(master.port) : undefined
  const storeOptions = {
    refreshOnFailure,
    ...(pattern === 'wait' ? { wait: { replicas: 1, timeoutMs: WAIT_TIMEOUT_MS } } : {}),
    ...(proxy
      ? { nodeAddressMap: { [`127.0.0.1:${master.port}`]: { host: '127.0.0.1', port: proxy.port } } }
      : {}),
  }
  const scope = `cluster_fault_${randomBytes(4).toString('hex')}`
  const servers: ServerProcess[] = []
  const agent = new Agent({ keepAlive: true, maxSockets: clients * frameworks.length })
  let detail = ''
  try {
    for (const framework of frameworks)
      servers.push(
        await startServer({
          store: CLIENT_STORE[client],
          framework,
          saveBeforeReply: pattern !== 'framework-default',
          port: REDIS_CLUSTER_PORTS[0] as number,
          scope,
          hasherModule: options.hasherModule,
          secret: SECRET,
          storeOptions,
        }),
      )
    const load = new SessionLoad(
      servers.map((server) => server.url),
      agent,
      { clients, updatesPerSession: 3, timeoutMs: requestTimeoutMs },
    )
    load.start()
    const loadStart = Date.now()
    await sleep(warmupMs)
    const faultAt = Date.now()
    const steady = load.latenciesBetween(loadStart + 500, faultAt)
    detail = await inject(fault, master, proxy, keepDownMs)
    // The fault includes the way back (the old master rejoined and in sync): the load runs on for a
    // while after it, so what still fails then is seen.
    let observeEnd = Math.max(faultAt + observeMs, Date.now() + 3000)
    await sleep(Math.max(0, observeEnd - Date.now()))
    // Recovered means a quiet tail of more than 2 s with no failed request sent in it; while the latest
    // failure is more recent than that (plus the client timeout, for requests still unanswered), the
    // load runs on, up to maxObserveMs.
    const quietNeededMs = 2000 + requestTimeoutMs
    while (Date.now() < faultAt + (options.maxObserveMs ?? observeMs)) {
      const { lastSentAt } = load.failuresBetween(faultAt, Date.now())
      if (lastSentAt === undefined || Date.now() - lastSentAt > quietNeededMs) break
      await sleep(250)
    }
    observeEnd = Math.max(observeEnd, Date.now())
    await load.stop()
    // The read-back happens on a healthy cluster: what is missing then was lost, not merely unreachable.
    await restore(fault, master)
    const counts = await load.verify()
    const failed = load.failuresBetween(faultAt, observeEnd)
    const quietTail = observeEnd - (failed.lastSentAt ?? faultAt) > 2000
    const crashed = servers.filter((server) => server.hasExited())
    return {
      fault,
      pattern,
      frameworks,
      client,
      refreshOnFailure,
      keepDownMs,
      crashes: crashed.length,
      ...(crashed.length > 0
        ? { crash: `${await crashed[0]?.exited}: ${crashLine(crashed[0]?.stderr() ?? '')}` }
        : {}),
      requests: counts.requests,
      ok: counts.ok,
      serverErrors: counts.serverErrors,
      noAnswer: counts.noAnswer,
      failedAfterFault: failed.count,
      recoveryMs: failed.lastSentAt === undefined ? 0 : quietTail ? failed.lastSentAt - faultAt : null,
      acknowledged: counts.acknowledged,
      lost: counts.lost,
      steadyP50Ms: quantile(steady, 0.5),
      steadyP99Ms: quantile(steady, 0.99),
      detail,
    }
  } finally {
    agent.destroy()
    await Promise.allSettled(servers.map((server) => stopServer(server)))
    await proxy?.close()
    await restore(fault, master).catch(() => {})
    // Whatever went wrong above, the next run must find a healthy cluster: the script rebuilds one
    // that does not come back to cluster_state:ok.
    await ensureCluster()
  }
}

async function inject(
  fault: ClusterFault,
  master: { id: string; port: number },
  proxy: FaultProxy | undefined,
  keepDownMs: number,
): Promise<string> {
  const other = REDIS_CLUSTER_PORTS.find((port) => port !== master.port) as number
  switch (fault) {
    case 'kill': {
      process.kill(await nodePid(master.port), 'SIGKILL')
      const killedAt = Date.now()
      await waitUntil(() => failedOver(master.port, other), 30_000, `a replica of ${master.port} promoted`)
      const promotedMs = Date.now() - killedAt
      await sleep(keepDownMs)
      await restore('kill', master)
      return `kill -9 of master ${master.port}; a replica served its slots ${promotedMs} ms later; the old master back as a replica in sync ${Date.now() - killedAt} ms after the kill`
    }
    case 'pause': {
      const pid = await nodePid(master.port)
      process.kill(pid, 'SIGSTOP')
      const stoppedAt = Date.now()
      try {
        await waitUntil(() => failedOver(master.port, other), 30_000, `a replica of ${master.port} promoted`)
        // Held past the failover and at least 2.5 × cluster-node-timeout, then resumed: it must rejoin as a replica.
        await sleep(Math.max(0, stoppedAt + 2.5 * NODE_TIMEOUT_MS - Date.now()))
      } finally {
        process.kill(pid, 'SIGCONT')
      }
      const heldMs = Date.now() - stoppedAt
      await restore('pause', master)
      return `SIGSTOP of master ${master.port} for ${heldMs} ms, then SIGCONT; back as a replica in sync ${Date.now() - stoppedAt} ms after the stop`
    }
    case 'reshard': {
      const target = (await clusterNodes(other)).find(
        (node) => node.role === 'master' && node.slotCount > 0 && node.port !== master.port,
      )
      if (target === undefined) throw new Error('no second master to move slots to')
      const startedAt = Date.now()
      await reshard(master.id, target.id, 1000)
      return `1000 slots moved from ${master.port} to ${target.port} in ${Date.now() - startedAt} ms`
    }
    case 'partition': {
      if (proxy === undefined) throw new Error('partition needs the fault proxy')
      proxy.blackhole()
      const holdMs = 3000
      await sleep(holdMs)
      await proxy.restore()
      return `clients' connections to master ${master.port} black-holed for ${holdMs} ms`
    }
  }
}

async function reshard(fromId: string, toId: string, slots: number): Promise<void> {
  await run(
    'redis-cli',
    [
      '--cluster',
      'reshard',
      `127.0.0.1:${REDIS_CLUSTER_PORTS[0]}`,
      '--cluster-from',
      fromId,
      '--cluster-to',
      toId,
      '--cluster-slots',
      String(slots),
      '--cluster-yes',
    ],
    { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
  )
}

/** Undoes what a fault left: the killed or paused node back as a replica, resharded slots moved back. */
async function restore(fault: ClusterFault, master: { id: string; port: number }): Promise<void> {
  if (fault === 'kill' || fault === 'pause') {
    // Started again only once its replica has taken over: a node restarted before the failover
    // finished can leave a slot with no master (cluster_state:fail, every write refused).
    await waitUntil(
      clusterHealthyExcept(master.port),
      30_000,
      'the cluster healthy without the old master',
    ).catch(() => {})
    await ensureCluster()
    await waitUntil(clusterHealthy, 30_000, 'every node back with cluster_state:ok')
    await waitUntil(replicasOnline, 60_000, 'every master with a replica in sync')
  }
  if (fault === 'reshard') {
    const nodes = await clusterNodes(master.port)
    const self = nodes.find((node) => node.id === master.id)
    const receiver = nodes.find((node) => node.role === 'master' && node.slotCount > 5461 + 500)
    if (self && receiver && self.slotCount < 5000) await reshard(receiver.id, master.id, 1000)
  }
}

function clusterHealthyExcept(port: number): () => Promise<boolean> {
  return async () => {
    const via = REDIS_CLUSTER_PORTS.find((p) => p !== port) as number
    const nodes = await clusterNodes(via)
    return (
      nodes.filter((n) => n.role === 'master' && n.slotCount > 0 && !n.failing).length === 3 &&
      nodes.filter((n) => n.role === 'master' && n.slotCount > 0).reduce((sum, n) => sum + n.slotCount, 0) ===
        16384
    )
  }
}
