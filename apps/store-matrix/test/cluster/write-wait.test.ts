import { randomBytes } from 'node:crypto'
import type { SessionData } from 'express-session'
import { expect, test } from 'vitest'
import {
  call,
  clusterNodes,
  masterPortOfKey,
  openClusterStore,
  openIoredisClusterStore,
  REDIS_CLUSTER_PORTS,
  UnconfirmedWriteError,
} from '../../src/index.js'
import { startClusterForTests } from '../cluster.js'
import {
  lastCommandsThrough,
  type ProxiedCluster,
  proxyEveryNode,
  until,
  whileSlotMigrates,
} from './proxied.js'

// A write and its WAIT must run on one connection: WAIT counts only the writes of the connection it is
// sent on. These tests look at where each ran (CLIENT LIST `cmd=`, the connection's last command, on the
// connections that came through this test's proxies) instead of stopping a replica, which every other
// cluster test file running at the same time would feel.
const startError = await startClusterForTests()

const session = (): SessionData =>
  ({ cookie: { originalMaxAge: 60_000, expires: new Date(Date.now() + 60_000) } }) as unknown as SessionData

/** Runs `work` with every node behind a proxy of its own, then closes what it opened. */
async function withProxies(
  work: (proxied: ProxiedCluster, closing: (() => Promise<unknown>)[]) => Promise<void>,
) {
  const proxied = await proxyEveryNode()
  const closing: (() => Promise<unknown>)[] = []
  try {
    await work(proxied, closing)
  } finally {
    for (const close of closing.reverse()) await close()
    await proxied.close()
  }
}

/** A master other than `port`. */
async function otherMaster(port: number): Promise<number> {
  const nodes = await clusterNodes(REDIS_CLUSTER_PORTS[0] as number)
  const other = nodes.find((node) => node.role === 'master' && node.slotCount > 0 && node.port !== port)
  if (other === undefined) throw new Error('the cluster has no second master')
  return other.port
}

test('node-redis: a client rebuilt between a write and its WAIT does not take the WAIT to another connection', () =>
  withProxies(async (proxied, closing) => {
    if (startError) expect.fail(startError.message)
    const scope = `cluster_rebuild_${randomBytes(4).toString('hex')}`
    const master = await masterPortOfKey(`authlab:${scope}:sid`)
    const opened = await openClusterStore(scope, {
      wait: { replicas: 1, timeoutMs: 500 },
      nodeAddressMap: proxied.nodeAddressMap,
    })
    closing.push(() => opened.close())
    // The write leaves on the write client's connection to its master, which then stops carrying bytes.
    proxied.proxyOf(master).stallOpenConnections()
    const write = call((done) => opened.store.set('sid', session(), done))
    // A failure on another master rebuilds both clients (refreshOnFailure) while the write is held.
    proxied.proxyOf(await otherMaster(master)).reset()
    await until(() => opened.refreshes() >= 2, 10_000, 'both clients rebuilt')
    await proxied.proxyOf(master).restore()
    await write
    const commands = await lastCommandsThrough(master, proxied.proxyOf(master))
    // A connection whose last command is the SET never sent the WAIT that reported it.
    expect(commands).not.toContain('set')
    expect(commands).toContain('wait')
  }))

test('node-redis: a write whose connection fails before its WAIT answers is refused with UnconfirmedWriteError', () =>
  withProxies(async (proxied, closing) => {
    if (startError) expect.fail(startError.message)
    const scope = `cluster_cut_${randomBytes(4).toString('hex')}`
    const master = await masterPortOfKey(`authlab:${scope}:sid`)
    const opened = await openClusterStore(scope, {
      wait: { replicas: 1, timeoutMs: 500 },
      nodeAddressMap: proxied.nodeAddressMap,
    })
    closing.push(() => opened.close())
    proxied.proxyOf(master).stallOpenConnections()
    const write = call((done) => opened.store.set('sid', session(), done))
    await new Promise((resolve) => setTimeout(resolve, 50))
    proxied.proxyOf(master).reset()
    await expect(write).rejects.toBeInstanceOf(UnconfirmedWriteError)
  }))

test.each([
  { client: 'node-redis', open: openClusterStore },
  { client: 'ioredis', open: openIoredisClusterStore },
])('$client: a write an ASK sends to another master goes out with its WAIT where it lands', ({ open }) =>
  withProxies(async (cluster, closing) => {
    if (startError) expect.fail(startError.message)
    const scope = `cluster_ask_${randomBytes(4).toString('hex')}`
    const opened = await open(scope, {
      wait: { replicas: 1, timeoutMs: 500 },
      nodeAddressMap: cluster.nodeAddressMap,
    })
    closing.push(() => opened.close())
    const commands = await whileSlotMigrates(`authlab:${scope}:sid`, async (source, target) => {
      // Acknowledged (the target's replica copied it) or refused, but never counted on another connection.
      await call((done) => opened.store.set('sid', session(), done)).catch((error: unknown) => {
        expect(error).toBeInstanceOf(UnconfirmedWriteError)
      })
      console.log(
        'DEBUG',
        await lastCommandsThrough(source, cluster.proxyOf(source)),
        await lastCommandsThrough(target, cluster.proxyOf(target)),
      )
      return [
        ...(await lastCommandsThrough(source, cluster.proxyOf(source))),
        ...(await lastCommandsThrough(target, cluster.proxyOf(target))),
      ]
    })
    expect(commands).not.toContain('set')
    expect(commands).toContain('wait')
  }),
)
