import session, { type SessionData } from 'express-session'
import type { KeyValueStore } from './kv.js'

type Callback<T = void> = (error?: unknown, value?: T) => void

/** Milliseconds until the cookie expires, or undefined for a browser-session cookie (kept until destroyed). */
function ttlOf(data: SessionData, fallbackMs: number): number | undefined {
  const expires = data.cookie?.expires
  if (expires instanceof Date || typeof expires === 'string') {
    return Math.max(1, new Date(expires).getTime() - Date.now())
  }
  return data.cookie?.maxAge === undefined ? fallbackMs : undefined
}

/**
 * express-session's store interface (`get`, `set`, `destroy`, `touch`: express-session `session/store.js`)
 * over a KeyValueStore, with each session's time to live taken from its cookie, as connect-redis does.
 * @fastify/session takes the same interface, so both NestJS adapters share it.
 */
export class KeyValueSessionStore extends session.Store {
  constructor(
    readonly backend: KeyValueStore,
    private readonly fallbackTtlMs: number,
  ) {
    super()
  }

  override get(id: string, callback: Callback<SessionData | null>): void {
    this.backend.get(id).then(
      (value) => callback(undefined, value === undefined ? null : (JSON.parse(value) as SessionData)),
      (error: unknown) => callback(error),
    )
  }

  override set(id: string, data: SessionData, callback?: Callback): void {
    this.backend.set(id, JSON.stringify(data), ttlOf(data, this.fallbackTtlMs)).then(
      () => callback?.(),
      (error: unknown) => callback?.(error),
    )
  }

  override touch(id: string, data: SessionData, callback?: Callback): void {
    this.set(id, data, callback)
  }

  override destroy(id: string, callback?: Callback): void {
    this.backend.delete(id).then(
      () => callback?.(),
      (error: unknown) => callback?.(error),
    )
  }
}
