import { randomBytes } from 'node:crypto'
import type { SessionData } from 'express-session'
import { expect, test } from 'vitest'
import {
  type ClusterOpenOptions,
  call,
  clusterNodes,
  masterPortOfKey,
  type OpenedCluster,
  type OpenedIoredisCluster,
  openClusterStore,
  openIoredisClusterStore,
  REDIS_CLUSTER_PORTS,
  withNode,
} from '../../src/index.js'
import { startClusterForTests } from '../cluster.js'
import { proxyEveryNode, until } from './proxied.js'

// Every fault here is a FaultProxy between this file's clients and one master, never the master itself:
// the other cluster test files run at the same time on the same nodes.
const startError = await startClusterForTests()

const CLIENTS: Record<
  string,
  (scope: string, options: ClusterOpenOptions) => Promise<OpenedCluster | OpenedIoredisCluster>
> = {
  'node-redis': openClusterStore,
  ioredis: openIoredisClusterStore,
}
/** A closed client that still retried would reconnect within reconnectDelayMs' 1 s ceiling. */
const RECONNECT_WINDOW_MS = 1200
/** Far above close's own bound (two operation deadlines), far below the 20 s a frozen master held it. */
const CLOSE_LIMIT_MS = 10_000

const session = (): SessionData =>
  ({ cookie: { originalMaxAge: 60_000, expires: new Date(Date.now() + 60_000) } }) as unknown as SessionData

/**
 * Opens a store (with `wait`: two clients) through proxies, writes sessions, takes the master of the
 * first down (`refused`: the port stops listening, as after `kill -9`) or freezes it (`stalled`: no byte
 * passes, as under SIGSTOP), closes the store, and reports what close() said and what stayed connected.
 */
async function closeWithMasterDown(client: string, fault: 'refused' | 'stalled') {
  const proxied = await proxyEveryNode()
  const scope = `cluster_close_${randomBytes(4).toString('hex')}`
  try {
    const opened = await (CLIENTS[client] as (typeof CLIENTS)[string])(scope, {
      wait: { replicas: 1, timeoutMs: 200 },
      nodeAddressMap: proxied.nodeAddressMap,
    })
    const ids = Array.from({ length: 8 }, (_, index) => `s${index}`)
    await Promise.all(ids.map((id) => call((done) => opened.store.set(id, session(), done))))
    const down = await masterPortOfKey(`authlab:${scope}:s0`)
    const proxy = proxied.proxyOf(down)
    if (fault === 'refused') proxy.refuse()
    else proxy.stall()
    const started = Date.now()
    const outcome = await opened.close()
    const closeMs = Date.now() - started
    // Let the stalled bytes through and listen again: a client still alive would now reconnect.
    await proxy.restore()
    await new Promise((resolve) => setTimeout(resolve, RECONNECT_WINDOW_MS))
    await until(() => proxied.connections() === 0, 2000, 'every connection closed').catch(() => {})
    const masters = (await clusterNodes(REDIS_CLUSTER_PORTS[0] as number)).filter(
      (node) => node.role === 'master' && node.slotCount > 0,
    )
    const left = await Promise.all(
      masters.map((master) =>
        withNode(master.port, async (node) => (await node.keys(`authlab:${scope}:*`)).length),
      ),
    )
    return { down: `127.0.0.1:${down}`, outcome, closeMs, connections: proxied.connections(), left }
  } finally {
    await proxied.close()
    // What the store could not remove: keys of a master that was down when it closed.
    for (const port of REDIS_CLUSTER_PORTS)
      await withNode(port, async (node) => {
        const keys = await node.keys(`authlab:${scope}:*`).catch(() => [])
        for (const key of keys) await node.del(key).catch(() => {})
      })
  }
}

test.concurrent.each(
  Object.keys(CLIENTS).flatMap((client) => [
    { client, fault: 'refused' as const },
    { client, fault: 'stalled' as const },
  ]),
)(
  '$client: close() with a master $fault closes every connection in bounded time and names what it left',
  async ({ client, fault }) => {
    if (startError) expect.fail(startError.message)
    const report = await closeWithMasterDown(client, fault)
    expect(report.closeMs).toBeLessThan(CLOSE_LIMIT_MS)
    expect(report.outcome.uncleaned.map((entry) => entry.node)).toEqual([report.down])
    expect(report.connections).toBe(0)
    // Only the master that was down kept the namespace's keys.
    expect(report.left.filter((count) => count > 0)).toHaveLength(1)
  },
  30_000,
)

test.concurrent.each(Object.keys(CLIENTS))(
  '%s: when the second client fails to connect at open, the first is closed too',
  async (client) => {
    if (startError) expect.fail(startError.message)
    const proxied = await proxyEveryNode()
    try {
      const ports = REDIS_CLUSTER_PORTS
      // One client connects, the other cannot finish its handshake. node-redis opens both clients at once,
      // each with a connection to every master: one master lets its first connection through and
      // black-holes the next. ioredis opens them one after the other, the first with one connection to
      // some node: once it is through, every proxy black-holes what comes next.
      let limited = client === 'node-redis'
      if (limited) proxied.proxyOf(await masterPortOfKey('any')).limitNewConnections(1)
      const limit = setInterval(() => {
        if (limited || proxied.connections() === 0) return
        limited = true
        for (const port of ports) proxied.proxyOf(port).limitNewConnections(0)
      }, 0)
      const opening = (CLIENTS[client] as (typeof CLIENTS)[string])(
        `cluster_open_${randomBytes(4).toString('hex')}`,
        { wait: { replicas: 1, timeoutMs: 200 }, nodeAddressMap: proxied.nodeAddressMap },
      )
      await expect(opening).rejects.toThrow()
      clearInterval(limit)
      expect(limited).toBe(true)
      for (const port of ports) await proxied.proxyOf(port).restore()
      await new Promise((resolve) => setTimeout(resolve, RECONNECT_WINDOW_MS))
      expect(proxied.connections()).toBe(0)
    } finally {
      await proxied.close()
    }
  },
  30_000,
)
