import { RedisStore } from 'connect-redis'
import type { SessionData } from 'express-session'
import { createCluster, type RedisClusterOptions, type RedisClusterType } from 'redis'
import { REDIS_CLUSTER, REDIS_CLUSTER_PORTS } from '../services.js'
import type { OpenOptions, OpenStore, StoreBackend } from './backend.js'
import { type ClusterWait, checkWait, requireReplicas } from './cluster-wait.js'
import { CONNECT_TIMEOUT_MS, OPERATION_TIMEOUT_MS, reconnectDelayMs, withDeadline } from './timeouts.js'

/** The commands connect-redis 11 sends per request, plus WAIT for the durability option. */
const SESSION_COMMANDS = new Set<PropertyKey>(['get', 'set', 'expire', 'del', 'mGet', 'sendCommand'])
/** The ones that write, and WAIT (sent only by `waitForReplicas`): with `wait`, on their own client. */
const WRITE_COMMANDS = new Set<PropertyKey>(['set', 'expire', 'del', 'sendCommand'])

export interface ClusterOpenOptions extends OpenOptions {
  /**
   * Where the client reaches a node announced as `127.0.0.1:<port>`, e.g. a fault proxy in front of one
   * master (node-redis `nodeAddressMap`).
   */
  readonly nodeAddressMap?: Readonly<Record<string, { host: string; port: number }>>
  /** `WAIT` after every session write and destroy (ClusterWait). */
  readonly wait?: ClusterWait
  /**
   * Rebuild the client (fresh connections and slot map) when a command misses its deadline or a node's
   * connection fails (default true). node-redis 6 re-reads the slot map on a MOVED or ASK reply and 5 s
   * into a node's reconnection attempts (@redis/client cluster/cluster-reconnection-tracker.js), but a
   * connection that stops answering without closing (a black hole, a half-open connection) causes
   * neither: it is never replaced, and commands for that master wait on it for ever (the partition rows
   * of the README's cluster column).
   */
  readonly refreshOnFailure?: boolean
}

/** Longest a new client may take to read the slot map and reach every master (milliseconds on loopback). */
const REFRESH_TIMEOUT_MS = 1000
/** Shortest time between two slot-map rebuilds. */
const REFRESH_INTERVAL_MS = 250

/** Wait for `wait.replicas` replicas to copy the last write of `key`'s connection, or fail. */
async function waitForReplicas(
  cluster: RedisClusterType,
  key: string,
  wait: NonNullable<ClusterOpenOptions['wait']>,
): Promise<void> {
  // WAIT counts the writes of the connection it is sent on; node-redis keeps one connection per node,
  // and routing by `key` sends WAIT to the master the SET just went to.
  const acknowledged = await cluster.sendCommand(key, false, [
    'WAIT',
    String(wait.replicas),
    String(wait.timeoutMs),
  ])
  requireReplicas(acknowledged, wait)
}

/**
 * connect-redis 11 on a cluster, with `WAIT` after every write when asked. connect-redis scans every
 * master for `ids`/`length`/`all`/`clear` (connect-redis `scanIterator`), and node-redis 6 splits its
 * multi-key MGET and DEL by slot (@redis/client cluster `multi-shard-splitter`), so a cluster accepts
 * them (CROSSSLOT otherwise: Redis Cluster specification, "Keys distribution model").
 */
export class ClusterRedisStore extends RedisStore {
  readonly #wait: ClusterOpenOptions['wait']

  constructor(options: ConstructorParameters<typeof RedisStore>[0], wait?: ClusterOpenOptions['wait']) {
    super(options)
    this.#wait = wait
  }

  override async set(sid: string, session: SessionData, callback?: (error?: unknown) => void) {
    const wait = this.#wait
    if (wait === undefined) return super.set(sid, session, callback)
    try {
      await super.set(sid, session)
      await waitForReplicas(this.client as RedisClusterType, this.prefix + sid, wait)
      callback?.()
    } catch (error) {
      if (callback === undefined) throw error
      callback(error)
    }
  }

  /** A logout is a write too: without WAIT a failover can undo the DEL and bring the session back. */
  override async destroy(sid: string, callback?: (error?: unknown) => void) {
    const wait = this.#wait
    if (wait === undefined) return super.destroy(sid, callback)
    try {
      await super.destroy(sid)
      await waitForReplicas(this.client as RedisClusterType, this.prefix + sid, wait)
      callback?.()
    } catch (error) {
      if (callback === undefined) throw error
      callback(error)
    }
  }
}

/**
 * A cluster client that can be replaced under its users: `refresh()` opens a new client from the root
 * nodes (a fresh slot map), swaps it in, and closes the old one once its commands have answered. Only
 * node-redis' public API is used; its own `rediscover` is internal.
 */
function refreshingCluster(options: RedisClusterOptions, onError: (error: unknown) => void) {
  const open = () => {
    const cluster = createCluster(options) as unknown as RedisClusterType
    // Node clients report connection errors here; without a listener they would end the process.
    cluster.on('error', onError)
    cluster.on('node-error', onError)
    // A node that accepts connections but never answers (a frozen or cut-off master) would hold
    // connect() forever: node-redis waits for every master's handshake.
    return withDeadline(
      cluster.connect().then(() => cluster),
      REFRESH_TIMEOUT_MS,
      () => cluster.destroy(),
    )
  }
  let refreshing: Promise<void> | undefined
  let lastRefresh = 0
  let closed = false
  const state = { current: undefined as unknown as RedisClusterType, refreshes: 0 }
  const refresh = () => {
    // One at a time, and not more often than every REFRESH_INTERVAL_MS: a dead master reports an
    // error on every reconnect attempt.
    if (refreshing || closed || Date.now() - lastRefresh < REFRESH_INTERVAL_MS) return
    lastRefresh = Date.now()
    refreshing = open()
      .then((next) => {
        const old = state.current
        state.current = next
        state.refreshes++
        if (closed) next.destroy()
        // Commands still waiting on the old client have their own deadline; give them that long.
        setTimeout(() => old.destroy(), OPERATION_TIMEOUT_MS).unref()
      })
      .catch(onError)
      .finally(() => {
        refreshing = undefined
      })
  }
  return {
    state,
    refresh,
    async connect() {
      state.current = await open()
    },
    async close() {
      closed = true
      await refreshing
      await withDeadline(state.current.close(), OPERATION_TIMEOUT_MS, () => state.current.destroy()).catch(
        () => {},
      )
    },
  }
}

type ClusterHolder = ReturnType<typeof refreshingCluster>

/**
 * The client connect-redis sees: the current cluster client, with a deadline on every session command.
 * Writes and their WAIT go to `writes`, everything else to `reads`: Redis blocks the connection a WAIT
 * is sent on until it returns (Redis docs, WAIT), and node-redis sends every command for a master on one
 * connection, so with a single client a read would queue behind every WAIT of its master.
 */
function sessionClient(reads: ClusterHolder, writes: ClusterHolder, refreshOnFailure: boolean) {
  return new Proxy({} as RedisClusterType, {
    has: (_, property) => property in reads.state.current,
    get(_, property) {
      const holder = WRITE_COMMANDS.has(property) ? writes : reads
      const target = holder.state.current
      const value = Reflect.get(target, property, target)
      if (typeof value !== 'function') return value
      if (!SESSION_COMMANDS.has(property)) return value.bind(target)
      const onMiss = refreshOnFailure ? holder.refresh : () => {}
      return (...args: unknown[]) =>
        withDeadline(Promise.resolve(value.apply(target, args)), OPERATION_TIMEOUT_MS, onMiss)
    },
  })
}

/** Every key under `prefix` on every master of the cluster (SCAN is per node). */
async function keysOnEveryMaster(cluster: RedisClusterType, prefix: string): Promise<string[]> {
  const keys = new Set<string>()
  for (const master of cluster.masters) {
    const node = await cluster.nodeClient(master)
    for await (const batch of node.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 }))
      for (const key of batch) keys.add(key)
  }
  return [...keys]
}

export interface OpenedCluster extends OpenStore {
  readonly store: ClusterRedisStore
  /** How often the client rebuilt its slot map after a failure. */
  refreshes(): number
}

/** Opens a namespace of connect-redis 11 on the Redis Cluster; `options` beyond OpenOptions as ClusterOpenOptions. */
export async function openClusterStore(
  scope: string,
  options: ClusterOpenOptions = {},
): Promise<OpenedCluster> {
  const { onConnectionError, nodeAddressMap, wait, refreshOnFailure = true } = options
  checkWait(wait)
  const onError = (error: unknown) => {
    onConnectionError?.(error)
    // A node whose connection fails may have been failed over: read the slot map again.
    if (!refreshOnFailure) return
    for (const holder of holders) if (holder.state.current !== undefined) holder.refresh()
  }
  const clusterOptions: RedisClusterOptions = {
    rootNodes: REDIS_CLUSTER_PORTS.map((port) => ({ url: `redis://127.0.0.1:${port}` })),
    defaults: { socket: { connectTimeout: CONNECT_TIMEOUT_MS, reconnectStrategy: reconnectDelayMs } },
    ...(nodeAddressMap ? { nodeAddressMap: { ...nodeAddressMap } } : {}),
  }
  const reads = refreshingCluster(clusterOptions, onError)
  // With WAIT, a second client: a connection per master for writes and their WAIT only (sessionClient).
  const writes = wait === undefined ? reads : refreshingCluster(clusterOptions, onError)
  const holders = wait === undefined ? [reads] : [reads, writes]
  await Promise.all(holders.map((holder) => holder.connect()))
  const prefix = `authlab:${scope}:`
  const client = sessionClient(reads, writes, refreshOnFailure)
  const keys = () => keysOnEveryMaster(reads.state.current, prefix)
  return {
    store: new ClusterRedisStore({ client, prefix }, wait),
    storedIds: async () => (await keys()).map((key) => key.slice(prefix.length)),
    refreshes: () => holders.reduce((sum, holder) => sum + holder.state.refreshes, 0),
    close: async () => {
      const left = await keys()
      await Promise.all(left.map((key) => reads.state.current.del(key)))
      await Promise.all(holders.map((holder) => holder.close()))
    },
  }
}

/** connect-redis 11 over node-redis 6 `createCluster`: one key per session, spread over the cluster's slots. */
export const redisClusterStore: StoreBackend = {
  name: 'redis-cluster',
  label: 'connect-redis 11 + Redis Cluster',
  service: REDIS_CLUSTER,
  open: (scope, options) => openClusterStore(scope, options),
}
