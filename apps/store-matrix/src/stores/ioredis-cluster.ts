import { type SessionData, Store } from 'express-session'
import { Cluster, type ClusterOptions } from 'ioredis'
import { REDIS_CLUSTER, REDIS_CLUSTER_PORTS } from '../services.js'
import type { OpenStore, StoreBackend } from './backend.js'
import { type ClusterWait, checkWait, requireReplicas, sessionTtlSeconds } from './cluster-wait.js'
import type { ClusterOpenOptions } from './redis-cluster.js'
import { CONNECT_TIMEOUT_MS, OPERATION_TIMEOUT_MS, withDeadline } from './timeouts.js'

type Callback<T = unknown> = (error?: unknown, value?: T) => void

/** `work`'s result to an express-session callback, if one was given; the promise either way. */
async function settle<T>(work: Promise<T>, callback?: Callback<T>): Promise<T | undefined> {
  try {
    const value = await withDeadline(work, OPERATION_TIMEOUT_MS, () => {})
    callback?.(undefined, value)
    return value
  } catch (error) {
    if (callback === undefined) throw error
    callback(error)
    return undefined
  }
}

/** Every key under `prefix` on every master (SCAN is per node: Redis Cluster specification). */
async function keysOnEveryMaster(cluster: Cluster, prefix: string): Promise<string[]> {
  const keys = new Set<string>()
  for (const node of cluster.nodes('master')) {
    let cursor = '0'
    do {
      const [next, batch] = await node.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500)
      for (const key of batch) keys.add(key)
      cursor = next
    } while (cursor !== '0')
  }
  return [...keys]
}

/**
 * An express-session store (also what @fastify/session takes) over an ioredis Cluster: one string key
 * `<prefix><session ID>` per session with a TTL, JSON values, as connect-redis writes them. With
 * `wait`, each write and its WAIT go as one pipeline on `writes`, a second client: ioredis sends a
 * pipeline to the master of its keys' slot, so WAIT runs on the connection that made the write (WAIT
 * counts that connection's writes), and a read never queues behind a WAIT (Redis blocks the connection
 * a WAIT is sent on: Redis docs, WAIT).
 */
export class IoredisClusterStore extends Store {
  constructor(
    readonly reads: Cluster,
    readonly writes: Cluster,
    readonly prefix: string,
    readonly wait?: ClusterWait,
  ) {
    super()
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
    void settle(
      this.#write((pipeline) => pipeline.set(this.prefix + sid, JSON.stringify(session), 'EX', ttl)),
      callback,
    )
  }

  override touch(sid: string, session: SessionData, callback?: Callback) {
    void settle(this.writes.expire(this.prefix + sid, sessionTtlSeconds(session)), callback)
  }

  override destroy(sid: string, callback?: Callback) {
    void settle(
      this.#write((pipeline) => pipeline.del(this.prefix + sid)),
      callback,
    )
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

  /** One write, then (with `wait`) its WAIT on the same connection; fails when too few replicas copied it. */
  async #write(add: (pipeline: ReturnType<Cluster['pipeline']>) => void): Promise<void> {
    const pipeline = this.writes.pipeline()
    add(pipeline)
    if (this.wait !== undefined) pipeline.wait(this.wait.replicas, this.wait.timeoutMs)
    const replies = (await pipeline.exec()) ?? []
    for (const [error] of replies) if (error) throw error
    if (this.wait !== undefined) requireReplicas(replies[1]?.[1], this.wait)
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
  await withDeadline(cluster.connect(), CONNECT_TIMEOUT_MS + OPERATION_TIMEOUT_MS, () => cluster.disconnect())
  return cluster
}

export interface OpenedIoredisCluster extends OpenStore {
  readonly store: IoredisClusterStore
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
  const writes = wait === undefined ? reads : await openCluster(clusterOptions, onError)
  const clients = wait === undefined ? [reads] : [reads, writes]
  const prefix = `authlab:${scope}:`
  const keys = () => keysOnEveryMaster(reads, prefix)
  return {
    store: new IoredisClusterStore(reads, writes, prefix, wait),
    storedIds: async () => (await keys()).map((key) => key.slice(prefix.length)),
    close: async () => {
      const left = await keys()
      await Promise.all(left.map((key) => reads.del(key)))
      await Promise.all(
        clients.map((client) =>
          withDeadline(client.quit(), OPERATION_TIMEOUT_MS, () => client.disconnect()).catch(() => {}),
        ),
      )
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
