import { InvalidOptionError } from '@authlab/core'
import { filterListing, listedIds, type SessionListing } from './listing.js'
import type { SessionStoreLike, StoredSession } from './store.js'
import type { TombstoneRegistry } from './tombstones.js'

type Callback = (error?: unknown) => void

/** The checked options of `guardLogout`. */
export interface GuardSettings {
  readonly maxAgeMs: number
  readonly tombstones: TombstoneRegistry
  readonly isAuthenticated: (session: StoredSession) => boolean
}

/** The session each of this process's writes still on its way to the store writes, by session ID. */
class WritesInFlight {
  readonly #byId = new Map<string, Map<Promise<void>, StoredSession>>()

  track(id: string, session: StoredSession, work: Promise<void>): void {
    const writes = this.#byId.get(id) ?? new Map<Promise<void>, StoredSession>()
    this.#byId.set(id, writes.set(work, session))
    const untrack = () => {
      writes.delete(work)
      if (writes.size === 0 && this.#byId.get(id) === writes) this.#byId.delete(id)
    }
    work.then(untrack, untrack)
  }

  /** The session the latest write of `id` still under way writes, if any. */
  latest(id: string): StoredSession | undefined {
    return [...(this.#byId.get(id)?.values() ?? [])].at(-1)
  }

  /** Resolves once every write of `id` under way now has settled; false when there was none. */
  async settled(id: string): Promise<boolean> {
    const writes = this.#byId.get(id)
    if (writes === undefined) return false
    await Promise.allSettled(writes.keys())
    return true
  }
}

/** Calls back with `work`'s outcome, always with an error value when it failed. */
function settle(work: Promise<void>, callback: Callback | undefined): void {
  work.then(
    () => callback?.(),
    (error: unknown) => callback?.(error ?? new Error('session store failed without a reason')),
  )
}

/** The guarded store methods (see guardLogout for what each does and why). */
export class LogoutGuard {
  readonly #store: SessionStoreLike
  readonly #settings: GuardSettings
  readonly #inFlight = new WritesInFlight()

  constructor(store: SessionStoreLike, settings: GuardSettings) {
    this.#store = store
    this.#settings = settings
  }

  get(id: string, callback: (error: unknown, session?: StoredSession | null) => void): void {
    // A session not in the store yet may be on its way: express-session sends the login's cookie
    // before its first save is confirmed (expressjs/session index.js, `writetop` in `res.end`), and a
    // request holding that cookie (a logout) would find nothing, start a new session, and destroy that
    // one, while the login's session lands after it. So a read that finds nothing waits for this
    // process's writes of that ID, then reads again.
    const lookup = async () => {
      const found = await this.#read(id)
      if (found !== null && found !== undefined) return found
      return (await this.#inFlight.settled(id)) ? this.#read(id) : found
    }
    lookup().then(
      (session) => callback(null, session),
      (error: unknown) => callback(error),
    )
  }

  set(id: string, session: StoredSession, callback?: Callback): void {
    const { tombstones } = this.#settings
    const write = async () => {
      if (await tombstones.has(id)) return
      await this.#call(this.#store.set, id, session)
      // Destroyed while this write was on its way: the write may have landed after the destroy.
      if (await tombstones.has(id)) await this.#call(this.#store.destroy, id)
    }
    const work = write()
    this.#inFlight.track(id, session, work)
    settle(work, callback)
  }

  touch(id: string, session: StoredSession, callback?: Callback): void {
    const touch = this.#store.touch
    if (typeof touch !== 'function') {
      callback?.()
      return
    }
    const refresh = async () => {
      if (!(await this.#settings.tombstones.has(id))) await this.#call(touch, id, session)
    }
    settle(refresh(), callback)
  }

  destroy(id: string, callback?: Callback): void {
    // The tombstone goes first, so no write that starts from here on can bring the session back. If it
    // cannot be recorded the session is destroyed all the same, and the error is reported: the logout
    // happened, but is not protected against a request in flight.
    const { tombstones, maxAgeMs } = this.#settings
    const remember = async () => {
      if (await this.#deservesTombstone(id)) await tombstones.add(id, Date.now() + maxAgeMs)
    }
    const logout = remember().then(
      () => this.#call(this.#store.destroy, id),
      async (error: unknown) => {
        await this.#call(this.#store.destroy, id)
        throw error
      },
    )
    settle(logout, callback)
  }

  all(callback: (error: unknown, sessions?: SessionListing | null) => void): void {
    this.#sessions().then(
      (listed) => callback(null, listed),
      (error: unknown) => callback(error),
    )
  }

  length(callback: (error: unknown, length?: number) => void): void {
    this.#sessions().then(
      (listed) => callback(null, listedIds(listed).length),
      (error: unknown) => callback(error),
    )
  }

  clear(callback?: Callback): void {
    // One at a time: a mass logout of a large store must not open a request per session at once. Every
    // tombstone goes in before the first session goes, handed over at once (`addAll`): a registry with
    // a size bound keeps all of them, where one by one it dropped the first for the last.
    const { tombstones, maxAgeMs } = this.#settings
    const logoutAll = async () => {
      const ids = listedIds(await this.#listing()).filter((id) => !this.#isTombstoneEntry(id))
      const remembered: string[] = []
      for (const id of ids) if (await this.#deservesTombstone(id)) remembered.push(id)
      const untilMs = Date.now() + maxAgeMs
      const recorded = tombstones.addAll
        ? tombstones.addAll(remembered, untilMs)
        : (async () => {
            for (const id of remembered) await tombstones.add(id, untilMs)
          })()
      // As for a single logout: the sessions go even when their tombstones could not be recorded.
      const failure = await recorded.then(
        () => undefined,
        (error: unknown) => error ?? new Error('the tombstone registry failed without a reason'),
      )
      for (const id of ids) await this.#call(this.#store.destroy, id)
      if (failure !== undefined) throw failure
    }
    settle(logoutAll(), callback)
  }

  /**
   * Only a session the store holds, or this process is still writing (that write lands after the
   * destroy and must find the tombstone there), and `isAuthenticated` accepts gets a tombstone: nothing
   * else can be written back logged in, and a logout without a session (any anonymous POST /logout)
   * must not be able to fill the registry and push a real logout's tombstone out of it.
   */
  async #deservesTombstone(id: string): Promise<boolean> {
    const session = (await this.#stored(id)) ?? this.#inFlight.latest(id)
    return session !== null && session !== undefined && this.#settings.isAuthenticated(session)
  }

  async #read(id: string): Promise<StoredSession | null | undefined> {
    return (await this.#settings.tombstones.has(id)) ? null : this.#stored(id)
  }

  #isTombstoneEntry(id: string): boolean {
    return this.#settings.tombstones.isEntry?.(id) === true
  }

  async #sessions(): Promise<SessionListing | null | undefined> {
    const { tombstones } = this.#settings
    const isSession = async (id: string) => !this.#isTombstoneEntry(id) && !(await tombstones.has(id))
    return filterListing(await this.#listing(), isSession)
  }

  #call(method: (...args: never[]) => void, ...args: unknown[]): Promise<void> {
    return new Promise<void>((resolve, reject) =>
      (method as (...args: unknown[]) => void).call(this.#store, ...args, (error?: unknown) =>
        error ? reject(error) : resolve(),
      ),
    )
  }

  #stored(id: string): Promise<StoredSession | null | undefined> {
    return new Promise((resolve, reject) =>
      this.#store.get(id, (error, session) => (error ? reject(error) : resolve(session))),
    )
  }

  #listing(): Promise<SessionListing | null | undefined> {
    return new Promise((resolve, reject) => {
      const all = this.#store.all
      if (typeof all !== 'function')
        reject(new InvalidOptionError('store has no all(): clear() cannot list the sessions to log out'))
      else all.call(this.#store, (error, sessions) => (error ? reject(error) : resolve(sessions)))
    })
  }
}
