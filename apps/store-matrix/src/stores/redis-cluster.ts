import { RedisStore } from 'connect-redis'
import type { SessionData } from 'express-session'
import type { RedisClientType, RedisClusterOptions, RedisClusterType } from 'redis'
import { REDIS_CLUSTER, REDIS_CLUSTER_PORTS } from '../services.js'
import type { OpenOptions, OpenStore, StoreBackend } from './backend.js'
import { type ClusterHolder, refreshingCluster } from './cluster-client.js'
import { type ClusterCloseOutcome, removeLeftovers } from './cluster-close.js'
import {
  type ClusterWait,
  checkWait,
  replicatedWrite,
  sessionTtlSeconds,
  type WriteRoute,
  type WriteThenWait,
  waitCommand,
} from './cluster-wait.js'
import { CONNECT_TIMEOUT_MS, OPERATION_TIMEOUT_MS, reconnectDelayMs, withDeadline } from './timeouts.js'

/** The commands connect-redis 11 sends per request (connect-redis `get`, `set`, `touch`, `destroy`, `all`). */
const SESSION_COMMANDS = new Set<PropertyKey>(['get', 'set', 'expire', 'del', 'mGet'])
/** The ones that write: with `wait`, on their own client. */
const WRITE_COMMANDS = new Set<PropertyKey>(['set', 'expire', 'del'])

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

/** A session write (`SET` or `DEL` of `key`) and its `WAIT`, confirmed or rejected (replicatedWrite). */
export type ReplicatedWriter = (key: string, write: readonly string[]) => Promise<void>

/**
 * connect-redis 11 on a cluster, with `WAIT` after every write when asked. connect-redis scans every
 * master for `ids`/`length`/`all`/`clear` (connect-redis `scanIterator`), and node-redis 6 splits its
 * multi-key MGET and DEL by slot (@redis/client cluster `multi-shard-splitter`), so a cluster accepts
 * them (CROSSSLOT otherwise: Redis Cluster specification, "Keys distribution model"). With a writer,
 * `set` and `destroy` send the command connect-redis would (`SET key value EX ttl`, `DEL key`) through
 * it instead, so that it goes out with its WAIT.
 */
export class ClusterRedisStore extends RedisStore {
  readonly #writer: ReplicatedWriter | undefined

  constructor(options: ConstructorParameters<typeof RedisStore>[0], writer?: ReplicatedWriter) {
    super(options)
    this.#writer = writer
  }

  override async set(sid: string, session: SessionData, callback?: (error?: unknown) => void) {
    const writer = this.#writer
    if (writer === undefined) return super.set(sid, session, callback)
    // connect-redis `set` with the options this store is built with (no `ttl`, `disableTTL` or
    // serializer): the cookie's remaining lifetime, else a day; an expired session is destroyed.
    const ttl = sessionTtlSeconds(session)
    if (ttl <= 0) return this.destroy(sid, callback)
    const key = this.prefix + sid
    return report(writer(key, ['SET', key, this.serializer.stringify(session), 'EX', String(ttl)]), callback)
  }

  /** A logout is a write too: without WAIT a failover can undo the DEL and bring the session back. */
  override async destroy(sid: string, callback?: (error?: unknown) => void) {
    const writer = this.#writer
    if (writer === undefined) return super.destroy(sid, callback)
    const key = this.prefix + sid
    return report(writer(key, ['DEL', key]), callback)
  }
}

/** connect-redis' convention: the callback if there is one, else the promise rejects. */
async function report(work: Promise<void>, callback?: (error?: unknown) => void): Promise<void> {
  try {
    await work
    callback?.()
  } catch (error) {
    if (callback === undefined) throw error
    callback(error)
  }
}

/**
 * Where node-redis sends a write and its WAIT: the client in use when the write starts, kept for the
 * whole write (a rebuild in between must not move the WAIT to the new client's connection), and on it
 * one node client, whose pipeline goes out in one write on one connection and is never resent in part:
 * a pipeline the connection closed under is rejected, not moved to the next connection (@redis/client
 * client/commands-queue.js, `chainInExecution` and `flushWaitingForReply`).
 */
function nodeRedisRoute(holder: ClusterHolder): WriteRoute {
  const cluster = holder.state.current
  const onNode =
    (node: RedisClientType): WriteThenWait =>
    async (write, wait, asking) => {
      const pipeline = node.multi()
      if (asking) pipeline.addCommand(['ASKING'])
      pipeline.addCommand([...write]).addCommand(waitCommand(wait))
      const replies = await withDeadline(
        pipeline.execAsPipeline(),
        wait.timeoutMs + OPERATION_TIMEOUT_MS,
        holder.refresh,
      )
      return replies.at(-1)
    }
  return {
    toKey: async (key) => onNode((await cluster.getNodeClientForKey(key)) as RedisClientType),
    async toAddress(address) {
      const master = cluster.masters.find((node) => node.address === address)
      return master && onNode((await cluster.nodeClient(master)) as RedisClientType)
    },
    // node-redis re-reads the slot map after a MOVED only for the commands it routes itself.
    slotMoved: holder.refresh,
  }
}

/**
 * The client connect-redis sees: the current cluster client, with a deadline on every session command.
 * Writes go to `writes`, everything else to `reads`: Redis blocks the connection a WAIT is sent on until
 * it returns (Redis docs, WAIT), and node-redis sends every command for a master on one connection, so
 * with a single client a read would queue behind every WAIT of its master.
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

/** Every key under `prefix` on `master` (SCAN is per node). */
async function keysOnMaster(
  cluster: RedisClusterType,
  master: RedisClusterType['masters'][number],
  prefix: string,
): Promise<string[]> {
  const keys = new Set<string>()
  const node = await cluster.nodeClient(master)
  for await (const batch of node.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 }))
    for (const key of batch) keys.add(key)
  return [...keys]
}

/** Every key under `prefix` on every master of the cluster. */
async function keysOnEveryMaster(cluster: RedisClusterType, prefix: string): Promise<string[]> {
  const keys: string[] = []
  for (const master of cluster.masters) keys.push(...(await keysOnMaster(cluster, master, prefix)))
  return keys
}

export interface OpenedCluster extends OpenStore {
  readonly store: ClusterRedisStore
  /** How often the client rebuilt its slot map after a failure. */
  refreshes(): number
  /**
   * Removes the namespace's keys from every master it can reach and closes every connection, within
   * the deadlines, whatever the cluster's state (a master down or frozen included).
   */
  close(): Promise<ClusterCloseOutcome>
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
  const connected = await Promise.allSettled(holders.map((holder) => holder.connect()))
  const failed = connected.find((result) => result.status === 'rejected')
  if (failed !== undefined) {
    // The client that did connect would otherwise keep its connections (and reconnect) for ever.
    await Promise.all(holders.map((holder) => holder.close()))
    throw failed.reason
  }
  const prefix = `authlab:${scope}:`
  const client = sessionClient(reads, writes, refreshOnFailure)
  const writer: ReplicatedWriter | undefined =
    wait && ((key, write) => replicatedWrite(nodeRedisRoute(writes), key, write, wait))
  return {
    store: new ClusterRedisStore({ client, prefix }, writer),
    storedIds: async () =>
      (await keysOnEveryMaster(reads.state.current, prefix)).map((key) => key.slice(prefix.length)),
    refreshes: () => holders.reduce((sum, holder) => sum + holder.state.refreshes, 0),
    close: async () => {
      const cluster = reads.state.current
      const uncleaned = await removeLeftovers(
        cluster.masters.map((master) => ({
          node: master.address,
          remove: async () => {
            const keys = await keysOnMaster(cluster, master, prefix)
            await Promise.all(keys.map((key) => cluster.del(key)))
          },
        })),
      )
      await Promise.all(holders.map((holder) => holder.close(uncleaned.length === 0)))
      return { uncleaned }
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
