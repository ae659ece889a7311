import { InvalidOptionError } from '@authlab/core'
import { filterListing, listedIds, type SessionListing } from './listing.js'
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

type Callback = (error?: unknown) => void

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
 * `clear` is a logout of every session: each is destroyed through the guard, so it gets a tombstone, and
 * existing tombstones are kept (a bare `store.clear()` would delete them, and every request in flight
 * would write its logged-out session back). A store without `all` cannot list what to tombstone, so
 * its `clear` is refused with an `InvalidOptionError`.
 *
 * `store` itself is left unchanged: the result is a Proxy that passes every other property and method
 * through (so express-session's `generate`, `regenerate` and events keep working, and `regenerate` goes
 * through the guarded `destroy`).
 */
export function guardLogout<S extends SessionStoreLike>(store: S, options: LogoutGuardOptions): S {
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

  const call = (method: (...args: never[]) => void, ...args: unknown[]) =>
    new Promise<void>((resolve, reject) =>
      (method as (...args: unknown[]) => void).call(store, ...args, (error?: unknown) =>
        error ? reject(error) : resolve(),
      ),
    )
  const stored = (id: string) =>
    new Promise<StoredSession | null | undefined>((resolve, reject) =>
      store.get(id, (error, session) => (error ? reject(error) : resolve(session))),
    )
  const listing = () =>
    new Promise<SessionListing | null | undefined>((resolve, reject) => {
      const all = store.all
      if (typeof all !== 'function')
        reject(new InvalidOptionError('store has no all(): clear() cannot list the sessions to log out'))
      else all.call(store, (error, sessions) => (error ? reject(error) : resolve(sessions)))
    })
  const isTombstoneEntry = (id: string) => tombstones.isEntry?.(id) === true
  const isSession = async (id: string) => !isTombstoneEntry(id) && !(await tombstones.has(id))
  const sessions = async () => filterListing(await listing(), isSession)
  const settle = (work: Promise<void>, callback: Callback | undefined) => {
    work.then(
      () => callback?.(),
      (error: unknown) => callback?.(error ?? new Error('session store failed without a reason')),
    )
  }

  // This process's writes still on their way to the store, by session ID, with the session each writes.
  const inFlight = new Map<string, Map<Promise<void>, StoredSession>>()
  const track = (id: string, session: StoredSession, work: Promise<void>) => {
    const writes = inFlight.get(id) ?? new Map<Promise<void>, StoredSession>()
    inFlight.set(id, writes.set(work, session))
    const untrack = () => {
      writes.delete(work)
      if (writes.size === 0 && inFlight.get(id) === writes) inFlight.delete(id)
    }
    work.then(untrack, untrack)
  }
  const read = async (id: string) => ((await tombstones.has(id)) ? null : await stored(id))

  const guarded = {
    get(id: string, callback: (error: unknown, session?: StoredSession | null) => void) {
      // A session not in the store yet may be on its way: express-session sends the login's cookie
      // before its first save is confirmed (expressjs/session index.js, `writetop` in `res.end`), and a
      // request holding that cookie (a logout) would find nothing, start a new session, and destroy that
      // one, while the login's session lands after it. So a read that finds nothing waits for this
      // process's writes of that ID, then reads again.
      const lookup = async () => {
        const found = await read(id)
        const writes = inFlight.get(id)
        if (found !== null && found !== undefined) return found
        if (writes === undefined) return found
        await Promise.allSettled(writes.keys())
        return read(id)
      }
      lookup().then(
        (session) => callback(null, session),
        (error: unknown) => callback(error),
      )
    },
    set(id: string, session: StoredSession, callback?: Callback) {
      const write = async () => {
        if (await tombstones.has(id)) return
        await call(store.set, id, session)
        // Destroyed while this write was on its way: the write may have landed after the destroy.
        if (await tombstones.has(id)) await call(store.destroy, id)
      }
      const work = write()
      track(id, session, work)
      settle(work, callback)
    },
    touch(id: string, session: StoredSession, callback?: Callback) {
      const touch = store.touch
      if (typeof touch !== 'function') {
        callback?.()
        return
      }
      const refresh = async () => {
        if (!(await tombstones.has(id))) await call(touch, id, session)
      }
      settle(refresh(), callback)
    },
    destroy(id: string, callback?: Callback) {
      // Only a session the store holds (and `isAuthenticated` accepts) gets a tombstone: nothing else
      // can be written back logged in, and a logout without a session (any anonymous POST /logout)
      // must not be able to fill the registry and push a real logout's tombstone out of it.
      // The tombstone goes first, so no write that starts from here on can bring the session back.
      // If the tombstone cannot be recorded the session is destroyed all the same, and the error is
      // reported: the logout happened, but is not protected against a request in flight.
      // A session this process is still writing counts as held: its write lands after this destroy,
      // and must find the tombstone there (`set` then destroys what it wrote).
      const remember = async () => {
        const pending = [...(inFlight.get(id)?.values() ?? [])]
        const session = (await stored(id)) ?? pending.at(-1)
        if (session !== null && session !== undefined && isAuthenticated(session))
          await tombstones.add(id, Date.now() + maxAgeMs)
      }
      const logout = remember().then(
        () => call(store.destroy, id),
        async (error: unknown) => {
          await call(store.destroy, id)
          throw error
        },
      )
      settle(logout, callback)
    },
    all(callback: (error: unknown, sessions?: SessionListing | null) => void) {
      sessions().then(
        (listed) => callback(null, listed),
        (error: unknown) => callback(error),
      )
    },
    length(callback: (error: unknown, length?: number) => void) {
      sessions().then(
        (listed) => callback(null, listedIds(listed).length),
        (error: unknown) => callback(error),
      )
    },
    clear(callback?: Callback) {
      // One at a time: a mass logout of a large store must not open a request per session at once.
      const logoutAll = async () => {
        for (const id of listedIds(await listing()))
          if (!isTombstoneEntry(id))
            await new Promise<void>((resolve, reject) =>
              guarded.destroy(id, (error) => (error ? reject(error) : resolve())),
            )
      }
      settle(logoutAll(), callback)
    },
  }
  // Always guarded; the others only where the store has them, so a store without one keeps having none.
  const always = new Set<PropertyKey>(['get', 'set', 'destroy'])
  const optional = new Set<PropertyKey>(['touch', 'all', 'length', 'clear'])
  return new Proxy(store, {
    get(target, property, receiver) {
      if (always.has(property)) return guarded[property as keyof typeof guarded]
      if (optional.has(property) && typeof Reflect.get(target, property, receiver) === 'function')
        return guarded[property as keyof typeof guarded]
      return Reflect.get(target, property, receiver)
    },
  })
}
