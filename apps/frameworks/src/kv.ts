import { InvalidOptionError } from '@authlab/core'
import { createClient, type RedisClientType } from 'redis'

/**
 * The one storage shape every app here writes its sessions through: a string value per key, with a time
 * to live. Each framework's own store interface (koa-session's `store`, @hono/session's `Storage`, an
 * unstorage driver for Auth.js, h3's server-side records) is a thin adapter over it, so the same Redis
 * namespace, or the same in-process map, backs every framework the same way.
 */
export interface KeyValueStore {
  get(key: string): Promise<string | undefined>
  /** `ttlMs` undefined: kept until deleted. */
  set(key: string, value: string, ttlMs?: number): Promise<void>
  delete(key: string): Promise<void>
  /** Every key held now, without the namespace prefix: what a test reads to find the exact IDs stored. */
  keys(): Promise<string[]>
  close(): Promise<void>
}

function checkTtl(ttlMs: number | undefined): number | undefined {
  if (ttlMs === undefined) return undefined
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 1)
    throw new InvalidOptionError(`a time to live must be a positive integer of milliseconds, got ${ttlMs}`)
  return ttlMs
}

/**
 * In-process storage, the default of every app when no store is given. An entry past its time to live
 * is dropped when it is next read or listed, and a sweep every `sweepMs` (unref'd, stopped by `close`)
 * drops the ones nobody reads again, so abandoned sessions never pile up.
 */
export class MemoryKeyValueStore implements KeyValueStore {
  readonly #entries = new Map<string, { value: string; expiresAt: number }>()
  readonly #sweep: NodeJS.Timeout

  constructor(sweepMs = 60_000) {
    this.#sweep = setInterval(() => this.#dropExpired(), sweepMs)
    this.#sweep.unref()
  }

  async get(key: string): Promise<string | undefined> {
    const entry = this.#entries.get(key)
    if (entry === undefined) return undefined
    if (entry.expiresAt <= Date.now()) {
      this.#entries.delete(key)
      return undefined
    }
    return entry.value
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    const ttl = checkTtl(ttlMs)
    this.#entries.set(key, {
      value,
      expiresAt: ttl === undefined ? Number.POSITIVE_INFINITY : Date.now() + ttl,
    })
  }

  async delete(key: string): Promise<void> {
    this.#entries.delete(key)
  }

  async keys(): Promise<string[]> {
    this.#dropExpired()
    return [...this.#entries.keys()]
  }

  async close(): Promise<void> {
    clearInterval(this.#sweep)
    this.#entries.clear()
  }

  #dropExpired(): void {
    const now = Date.now()
    for (const [key, { expiresAt }] of this.#entries) if (expiresAt <= now) this.#entries.delete(key)
  }
}

export interface RedisKeyValueOptions {
  /** Default `redis://127.0.0.1:6379`. */
  readonly url?: string
  /** Put before every key, so runs and apps sharing one Redis never see each other's sessions. */
  readonly prefix: string
  /** Every connection error, after the client has logged nothing (node-redis leaves that to its owner). */
  readonly onError?: (error: unknown) => void
}

/** A command that gets no answer in this long fails: a frozen Redis must not hang a request for ever. */
const COMMAND_TIMEOUT_MS = 2000

/**
 * Redis through node-redis: one string key `<prefix><key>` per entry, `SET … PX ttl` for the time to
 * live, so Redis itself forgets expired sessions. Connected before it is returned. `close()` deletes
 * every key of its namespace before it disconnects: the namespace belongs to one test or bench run.
 */
export async function openRedisKeyValueStore(options: RedisKeyValueOptions): Promise<KeyValueStore> {
  const { url = 'redis://127.0.0.1:6379', prefix, onError } = options
  if (typeof prefix !== 'string' || prefix.length === 0)
    throw new InvalidOptionError('a Redis store needs a non-empty key prefix of its own')
  const client: RedisClientType = createClient({
    url,
    socket: { connectTimeout: COMMAND_TIMEOUT_MS, reconnectStrategy: false },
    commandOptions: { timeout: COMMAND_TIMEOUT_MS },
  })
  // Without a listener, a dropped connection's 'error' event ends the process (Node.js events
  // documentation, "Error events").
  client.on('error', (error: unknown) => onError?.(error))
  await client.connect()
  const scan = async () => {
    const found: string[] = []
    for await (const batch of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) found.push(...batch)
    return found
  }
  return {
    async get(key) {
      return (await client.get(prefix + key)) ?? undefined
    },
    async set(key, value, ttlMs) {
      const ttl = checkTtl(ttlMs)
      await (ttl === undefined
        ? client.set(prefix + key, value)
        : client.set(prefix + key, value, { PX: ttl }))
    },
    async delete(key) {
      await client.del(prefix + key)
    },
    async keys() {
      return (await scan()).map((key) => key.slice(prefix.length))
    },
    async close() {
      const left = await scan()
      if (left.length > 0) await client.del(left)
      await client.close()
    },
  }
}
