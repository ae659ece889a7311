import { type SessionData, Store } from 'express-session'
import { Cluster, type ClusterOptions, type Redis } from 'ioredis'
import { REDIS_CLUSTER, REDIS_CLUSTER_PORTS } from '../services.js'
import type { OpenStore, StoreBackend } from './backend.js'
import { type ClusterCloseOutcome, closeWithin, removeLeftovers } from './cluster-close.js'
import {
  type ClusterWait,
  checkWait,
  replicatedWrite,
  sessionTtlSeconds,
  type WriteRoute,
  type WriteThenWait,
  waitCommand,
} from './cluster-wait.js'
import type { ClusterOpenOptions } from './redis-cluster.js'
import { CONNECT_TIMEOUT_MS, OPERATION_TIMEOUT_MS, withDeadline } from './timeouts.js'

type Callback<T = unknown> = (error?: unknown, value?: T) => void

/** `work`'s result to an express-session callback, if one was given; the promise either way. */
async function settle<T>(
  work: Promise<T>,
  callback?: Callback<T>,
  deadlineMs = OPERATION_TIMEOUT_MS,
): Promise<T | undefined> {
  try {
    const value = await withDeadline(work, deadlineMs, () => {})
    callback?.(undefined, value)
    return value
  } catch (error) {
    if (callback === undefined) throw error
    callback(error)
    return undefined
  }
}

/** Every key under `prefix` on one node (SCAN is per node: Redis Cluster specification). */
async function keysOnNode(node: Redis, prefix: string): Promise<string[]> {
  const keys = new Set<string>()
  let cursor = '0'
  do {
    const [next, batch] = await node.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500)
    for (const key of batch) keys.add(key)
    cursor = next
  } while (cursor !== '0')
  return [...keys]
}

/** Every key under `prefix` on every master. */
async function keysOnEveryMaster(cluster: Cluster, prefix: string): Promise<string[]> {
  const keys: string[] = []
  for (const node of cluster.nodes('master')) keys.push(...(await keysOnNode(node, prefix)))
  return keys
}

/** The first error of an ioredis pipeline's `[error, reply]` pairs, thrown; else the last reply. */
function lastReply(replies: [Error | null, unknown][] | null): unknown {
  for (const [error] of replies ?? []) if (error) throw error
  return replies?.at(-1)?.[1]
}

/**
 * Where ioredis sends a write and its WAIT. Through the cluster, as one pipeline to the master of the
 * key's slot with the write inside MULTI/EXEC: ioredis 6.1 sends a pipelined command whose own reply is
 * a MOVED or ASK again on its own, to the node named, while the rest of the pipeline stays where it
 * was (ioredis Pipeline.js `resendOnRedirection`), so a plain `SET` + `WAIT` could run on two nodes;
 * around a transaction it resends only read-only commands, and retries the pipeline only as a whole.
 * After a redirection, to the node named, on that node's own connection (no cluster routing at all).
 */
function ioredisRoute(cluster: Cluster, natMap: ClusterOpenOptions['nodeAddressMap']): WriteRoute {
  const deadline = (wait: ClusterWait) => wait.timeoutMs + OPERATION_TIMEOUT_MS
  const toKey: WriteThenWait = async (write, wait) => {
    // Method names, as `pipeline([...])` calls them: ioredis' own `multi()` and `exec()` (an `exec` inside
    // an open transaction queues EXEC: ioredis Pipeline.js; the `exec()` below then runs the pipeline),
    // and `call` for raw commands.
    const pipeline = cluster.pipeline([
      ['multi'],
      ['call', ...write],
      ['exec'],
      ['call', ...waitCommand(wait)],
    ])
    return lastReply(await withDeadline(pipeline.exec(), deadline(wait), () => {}))
  }
  const onNode =
    (node: Redis): WriteThenWait =>
    async (write, wait, asking) => {
      const commands = [...(asking ? [['asking']] : []), ['call', ...write], ['call', ...waitCommand(wait)]]
      return lastReply(await withDeadline(node.pipeline(commands).exec(), deadline(wait), () => {}))
    }
  return {
    toKey: async () => toKey,
    async toAddress(address) {
      // The node's connection is at its natMap address, as ioredis connected it.
      const mapped = natMap?.[address]
      const [host, port] = mapped
        ? [mapped.host, mapped.port]
        : [address.replace(/:\d+$/, ''), Number(address.split(':').at(-1))]
      const node = cluster.nodes('master').find((n) => n.options.host === host && n.options.port === port)
      return node && onNode(node)
    },
    slotMoved: () => cluster.refreshSlotsCache(),
  }
}

/**
 * An express-session store (also what @fastify/session takes) over an ioredis Cluster: one string key
 * `<prefix><session ID>` per session with a TTL, JSON values, as connect-redis writes them. Writes go
 * on `writes`; with `wait`, a second client, so a read never queues behind a WAIT (Redis blocks the
 * connection a WAIT is sent on: Redis docs, WAIT), and each write goes out with its WAIT on one
 * connection (ioredisRoute, replicatedWrite).
 */
export class IoredisClusterStore extends Store {
  readonly #route: WriteRoute | undefined

  constructor(
    readonly reads: Cluster,
    readonly writes: Cluster,
    readonly prefix: string,
    readonly wait?: ClusterWait,
    natMap?: ClusterOpenOptions['nodeAddressMap'],
  ) {
    super()
    this.#route = wait && ioredisRoute(writes, natMap)
  }

  override get(sid: string, callback: Callback<SessionData | null>) {
    const read = this.reads
      .get(this.prefix + sid)
      .then((raw) => (raw ? (JSON.parse(raw) as SessionData) : null))
    void settle(read, callback)
  }

  override set(sid: string, session: SessionData, callback?: Callback) {
    const ttl = sessionTtlSeconds(session)
    if (ttl <= 0) return this.destroy(sid, callback)
    const key = this.prefix + sid
    const write = this.#write(key, ['SET', key, JSON.stringify(session), 'EX', String(ttl)])
    void settle(write, callback, this.#writeDeadlineMs)
  }

  override touch(sid: string, session: SessionData, callback?: Callback) {
    void settle(this.writes.expire(this.prefix + sid, sessionTtlSeconds(session)), callback)
  }

  override destroy(sid: string, callback?: Callback) {
    const key = this.prefix + sid
    void settle(this.#write(key, ['DEL', key]), callback, this.#writeDeadlineMs)
  }

  override all(callback: Callback<SessionData[]>) {
    const read = async () => {
      const keys = await keysOnEveryMaster(this.reads, this.prefix)
      const values = await Promise.all(keys.map((key) => this.reads.get(key)))
      return values.flatMap((raw, index) =>
        raw
          ? [{ ...JSON.parse(raw), id: (keys[index] as string).slice(this.prefix.length) } as SessionData]
          : [],
      )
    }
    void settle(read(), callback)
  }

  override length(callback: Callback<number>) {
    void settle(
      keysOnEveryMaster(this.reads, this.prefix).then((keys) => keys.length),
      callback,
    )
  }

  override clear(callback?: Callback) {
    const clear = async () => {
      const keys = await keysOnEveryMaster(this.reads, this.prefix)
      await Promise.all(keys.map((key) => this.writes.del(key)))
    }
    void settle(clear(), callback)
  }

  /** A write with `wait` may take its WAIT's timeout on top of the operation's deadline. */
  get #writeDeadlineMs(): number {
    return OPERATION_TIMEOUT_MS + (this.wait?.timeoutMs ?? 0)
  }

  /** One write; with `wait`, reported only once confirmed by its WAIT on the same connection (replicatedWrite). */
  async #write(key: string, write: readonly string[]): Promise<void> {
    const [command = '', ...args] = write
    if (this.wait === undefined || this.#route === undefined) await this.writes.call(command, ...args)
    else await replicatedWrite(this.#route, key, write, this.wait)
  }
}

/** An ioredis Cluster with ioredis' defaults, connected within the deadlines, every error heard. */
async function openCluster(options: ClusterOptions, onError: (error: unknown) => void): Promise<Cluster> {
  const cluster = new Cluster(
    REDIS_CLUSTER_PORTS.map((port) => ({ host: '127.0.0.1', port })),
    { ...options, lazyConnect: true },
  )
  // Without a listener an 'error' event ends the process (Node.js events docs, "Error events").
  cluster.on('error', onError)
  cluster.on('node error', onError)
  try {
    await withDeadline(cluster.connect(), CONNECT_TIMEOUT_MS + OPERATION_TIMEOUT_MS, () => {})
  } catch (error) {
    // A client that failed to connect must not keep retrying in the background.
    cluster.disconnect()
    throw error
  }
  return cluster
}

export interface OpenedIoredisCluster extends OpenStore {
  readonly store: IoredisClusterStore
  /** As OpenedCluster's: bounded, whatever the cluster's state; reports the masters it could not clean. */
  close(): Promise<ClusterCloseOutcome>
}

/** The address the cluster announces for `node`, which ioredis reaches at its natMap address. */
function announcedAddress(node: Redis, natMap: ClusterOpenOptions['nodeAddressMap']): string {
  const reached = `${node.options.host}:${node.options.port}`
  const announced = Object.entries(natMap ?? {}).find(([, to]) => `${to.host}:${to.port}` === reached)?.[0]
  return announced ?? reached
}

/** Closes an ioredis Cluster within the deadline; `disconnect()` also stops its reconnection attempts. */
function closeCluster(client: Cluster, graceful = true): Promise<void> {
  return closeWithin(
    () => client.quit(),
    () => client.disconnect(),
    graceful,
  )
}

/** Opens a namespace of the ioredis store on the Redis Cluster (`nodeAddressMap` becomes ioredis' `natMap`). */
export async function openIoredisClusterStore(
  scope: string,
  options: ClusterOpenOptions = {},
): Promise<OpenedIoredisCluster> {
  const { onConnectionError, nodeAddressMap, wait } = options
  checkWait(wait)
  const onError = (error: unknown) => onConnectionError?.(error)
  const clusterOptions: ClusterOptions = {
    redisOptions: { connectTimeout: CONNECT_TIMEOUT_MS },
    ...(nodeAddressMap ? { natMap: { ...nodeAddressMap } } : {}),
  }
  const reads = await openCluster(clusterOptions, onError)
  let writes = reads
  if (wait !== undefined) {
    try {
      writes = await openCluster(clusterOptions, onError)
    } catch (error) {
      // The client that did connect would otherwise keep its connections for ever.
      await closeCluster(reads)
      throw error
    }
  }
  const clients = wait === undefined ? [reads] : [reads, writes]
  const prefix = `authlab:${scope}:`
  return {
    store: new IoredisClusterStore(reads, writes, prefix, wait, nodeAddressMap),
    storedIds: async () => (await keysOnEveryMaster(reads, prefix)).map((key) => key.slice(prefix.length)),
    close: async () => {
      const uncleaned = await removeLeftovers(
        reads.nodes('master').map((node) => ({
          node: announcedAddress(node, nodeAddressMap),
          remove: async () => {
            const keys = await keysOnNode(node, prefix)
            await Promise.all(keys.map((key) => reads.del(key)))
          },
        })),
      )
      await Promise.all(clients.map((client) => closeCluster(client, uncleaned.length === 0)))
      return { uncleaned }
    },
  }
}

/** The ioredis 6 adapter over the Redis Cluster, for the cluster's fault column beside node-redis. */
export const ioredisClusterStore: StoreBackend = {
  name: 'redis-cluster-ioredis',
  label: 'ioredis 6 store + Redis Cluster',
  service: REDIS_CLUSTER,
  open: (scope, options) => openIoredisClusterStore(scope, options),
}
