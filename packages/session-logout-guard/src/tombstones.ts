import { InvalidOptionError } from '@authlab/core'
import type { SessionStoreLike } from './store.js'

/** Where the IDs of destroyed sessions are remembered until the session could no longer be alive anyway. */
export interface TombstoneRegistry {
  /** Remembers `id` as destroyed until `untilMs` (milliseconds since the epoch). */
  add(id: string, untilMs: number): Promise<void>
  /**
   * Remembers every one of `ids` as destroyed until `untilMs`: a mass logout (the guard's `clear`). A
   * registry with a size bound keeps them all; without this method the guard adds them one by one.
   */
  addAll?(ids: readonly string[], untilMs: number): Promise<void>
  /** True while `id` is remembered as destroyed. */
  has(id: string): Promise<boolean>
  /**
   * True when `storeId` names one of this registry's own entries in a session store (`storeTombstones`
   * keeps them next to the sessions), so the guard's `all`, `length` and `clear` can tell them apart.
   */
  isEntry?(storeId: string): boolean
}

export interface MemoryTombstoneOptions {
  /**
   * Most tombstones of single logouts kept at once (default 100,000, a few megabytes). Past it the
   * oldest is dropped first: with one lifetime for all, it is the one closest to expiring on its own.
   * `guardLogout` adds one only for a destroyed session the store held, so filling it takes that many
   * logins. The tombstones of a `clear()` are all kept, beyond it: the guard has just listed every one
   * of those sessions, and dropping the first of them would let a request still holding one write it
   * back.
   */
  maxEntries?: number
}

/**
 * Tombstones in this process's memory: right for one process. Several processes behind one store need
 * `storeTombstones`, or a logout served by one is not seen by another.
 */
export function memoryTombstones({ maxEntries = 100_000 }: MemoryTombstoneOptions = {}): TombstoneRegistry {
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1)
    throw new InvalidOptionError(`maxEntries must be a positive integer, got ${String(maxEntries)}`)
  // A Map iterates in insertion order; every tombstone lives equally long, so the first entry always
  // expires first and expired entries are swept from the front. Single logouts and mass logouts are
  // kept apart: only the former are bounded.
  const single = new Map<string, number>()
  const mass = new Map<string, number>()
  const sweep = (entries: Map<string, number>, limit: number) => {
    const now = Date.now()
    for (const [id, expires] of entries) {
      if (expires > now && entries.size <= limit) break
      entries.delete(id)
    }
  }
  const remembered = (entries: Map<string, number>, id: string) => {
    const expires = entries.get(id)
    if (expires === undefined) return false
    if (expires > Date.now()) return true
    entries.delete(id)
    return false
  }
  return {
    async add(id, untilMs) {
      single.delete(id)
      single.set(id, untilMs)
      sweep(single, maxEntries)
    },
    async addAll(ids, untilMs) {
      for (const id of ids) {
        mass.delete(id)
        mass.set(id, untilMs)
      }
      sweep(mass, Number.POSITIVE_INFINITY)
    },
    async has(id) {
      return remembered(single, id) || remembered(mass, id)
    },
  }
}

export interface StoreTombstoneOptions {
  /** Prefix of the tombstone entries' IDs in the store (default `logout-tombstone:`). */
  prefix?: string
}

/**
 * Tombstones kept in a session store, normally the very store the sessions live in, so every process
 * using that store (Redis, PostgreSQL, MySQL…) sees every logout. Each tombstone is an ordinary entry
 * whose cookie expires with it, so the store's own expiry removes it: the stores keep sessions until
 * `cookie.expires` (connect-redis as a key TTL, connect-pg-simple and express-mysql-session in an
 * `expire(s)` column). Costs one extra store read per guarded read or write.
 */
export function storeTombstones(
  store: SessionStoreLike,
  { prefix = 'logout-tombstone:' }: StoreTombstoneOptions = {},
): TombstoneRegistry {
  if (typeof store?.get !== 'function' || typeof store.set !== 'function')
    throw new InvalidOptionError('store must be a session store with get and set')
  if (typeof prefix !== 'string' || prefix.length === 0)
    throw new InvalidOptionError('prefix must be a non-empty string')
  return {
    add(id, untilMs) {
      const expires = new Date(untilMs)
      const entry = { cookie: { expires, originalMaxAge: untilMs - Date.now() }, loggedOut: true }
      return new Promise((resolve, reject) =>
        store.set(`${prefix}${id}`, entry, (error) => (error ? reject(error) : resolve())),
      )
    },
    has(id) {
      return new Promise((resolve, reject) =>
        store.get(`${prefix}${id}`, (error, entry) =>
          error ? reject(error) : resolve(entry !== null && entry !== undefined),
        ),
      )
    },
    isEntry(storeId) {
      return storeId.startsWith(prefix)
    },
  }
}
