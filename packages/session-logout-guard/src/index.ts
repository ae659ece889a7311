import { InvalidOptionError } from '@authlab/core'
import { type GuardSettings, LogoutGuard } from './guard.js'
import type { SessionStoreLike, StoredSession } from './store.js'
import { memoryTombstones, type TombstoneRegistry } from './tombstones.js'

export type { SessionListing } from './listing.js'
export type { SessionStoreLike, StoredSession } from './store.js'
export {
  type MemoryTombstoneOptions,
  memoryTombstones,
  type StoreTombstoneOptions,
  storeTombstones,
  type TombstoneRegistry,
} from './tombstones.js'

export interface LogoutGuardOptions {
  /**
   * How long a destroyed ID stays refused: the sessions' max age. A request still holding the old
   * session, and any copy of it that reached the store late, cannot outlive that.
   */
  maxAgeMs: number
  /** Where destroyed IDs are remembered (default: `memoryTombstones()`, right for one process). */
  tombstones?: TombstoneRegistry
  /**
   * Which stored sessions are worth a tombstone when destroyed (default: every session the store
   * holds). With `saveUninitialized: true` every visitor has a stored session: pass e.g.
   * `(session) => 'user' in session`, so only a logged-in session, which took a login to make, gets one.
   */
  isAuthenticated?: (session: StoredSession) => boolean
}

/**
 * Makes logout stick. express-session and @fastify/session load a session at the start of a request
 * and write it back at the end; a request that was already in flight when another request logged
 * the session out writes it back afterwards, logged in again (@fastify/session with `rolling` does so
 * even for read-only requests, as it saves on every response). OWASP Session Management Cheat Sheet,
 * "Manual Session Expiration": a logged-out session must be invalidated on the server.
 *
 * The returned store behaves as `store`, except that a destroyed ID is remembered (a tombstone) for
 * `maxAgeMs`, and while it is:
 * - `set` and `touch` write nothing, and report success: the logout won the race;
 * - `get` finds nothing, even if a write that started before the logout landed after it;
 * - a `set` that was running when the logout happened destroys its own write once it lands.
 *
 * A session this process is still writing counts as stored: a `get` that finds nothing waits for those
 * writes and reads again, and a `destroy` of it adds the tombstone.
 *
 * `all` and `length` count sessions only: neither a tombstone kept in the same store nor a destroyed ID.
 * `clear` is a logout of every session: each gets a tombstone, as through `destroy` (all handed to the
 * registry at once, `addAll`, so a bounded one keeps every one), then is destroyed, and existing
 * tombstones are kept (a bare `store.clear()` would delete them, and every request in flight would write
 * its logged-out session back). A store without `all` cannot list what to tombstone, so
 * its `clear` is refused with an `InvalidOptionError`.
 *
 * `store` itself is left unchanged: the result is a Proxy that passes every other property and method
 * through (so express-session's `generate`, `regenerate` and events keep working, and `regenerate` goes
 * through the guarded `destroy`).
 */
export function guardLogout<S extends SessionStoreLike>(store: S, options: LogoutGuardOptions): S {
  const guard = new LogoutGuard(store, checkOptions(store, options))
  // Always guarded; the others only where the store has them, so a store without one keeps having none.
  const always = new Set<PropertyKey>(['get', 'set', 'destroy'])
  const optional = new Set<PropertyKey>(['touch', 'all', 'length', 'clear'])
  const guarded = new Map<PropertyKey, unknown>(
    [...always, ...optional].map((name) => {
      const method = guard[name as keyof LogoutGuard] as (...args: never[]) => void
      return [name, method.bind(guard)]
    }),
  )
  return new Proxy(store, {
    get(target, property, receiver) {
      if (always.has(property)) return guarded.get(property)
      if (optional.has(property) && typeof Reflect.get(target, property, receiver) === 'function')
        return guarded.get(property)
      return Reflect.get(target, property, receiver)
    },
  })
}

function checkOptions(store: SessionStoreLike, options: LogoutGuardOptions): GuardSettings {
  if (
    typeof store?.get !== 'function' ||
    typeof store.set !== 'function' ||
    typeof store.destroy !== 'function'
  )
    throw new InvalidOptionError('store must be a session store with get, set and destroy')
  const { maxAgeMs, tombstones = memoryTombstones(), isAuthenticated = () => true } = options ?? {}
  if (!Number.isSafeInteger(maxAgeMs) || maxAgeMs < 1)
    throw new InvalidOptionError(`maxAgeMs must be a positive integer, got ${String(maxAgeMs)}`)
  if (typeof tombstones?.add !== 'function' || typeof tombstones.has !== 'function')
    throw new InvalidOptionError('tombstones must be a TombstoneRegistry with add and has')
  if (typeof isAuthenticated !== 'function')
    throw new InvalidOptionError('isAuthenticated must be a function of the stored session')
  return { maxAgeMs, tombstones, isAuthenticated }
}
