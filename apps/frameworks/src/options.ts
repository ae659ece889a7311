import { checkIdGenerator, InvalidOptionError } from '@authlab/core'
import { type KeyValueStore, MemoryKeyValueStore } from './kv.js'

/** Every app here under one name, for tests and the bench to iterate over. */
export type FrameworkName =
  | 'koa'
  | 'h3'
  | 'authjs'
  | 'nest-express'
  | 'nest-fastify'
  | 'hono'
  | 'better-auth-hono'
  | 'nest-login'

export interface ListenOptions {
  /** Default 127.0.0.1: these apps exist for tests and benchmarks, never for a public interface. */
  readonly host?: string
  /** Default 0: an ephemeral port. */
  readonly port?: number
}

/** A listening app, the same shape for every framework. */
export interface RunningApp {
  readonly framework: FrameworkName
  readonly url: string
  close(): Promise<void>
}

/**
 * What every session-ID app takes. Routes, the same in each: `GET /` creates a session when none is
 * sent and counts visits (`{ id, visits }`); `POST /login` rotates the session ID where the framework
 * can (`{ id, previousId }`); `GET /me` (`{ id, visits }` or 401); `POST /logout` ends the session (204).
 */
export interface SessionAppOptions {
  /** The framework's session-ID option (koa-session `genid`, h3 `generateId`, …). Synchronous. */
  readonly generateId: () => string
  /** Signs or encrypts the session cookie; at least 32 characters (@fastify/session's floor, kept for all). */
  readonly secret: string
  /**
   * Where sessions live, through the framework's own store interface. Default: an in-process
   * MemoryKeyValueStore the app closes with itself; a given store is the caller's to close.
   */
  readonly store?: KeyValueStore
  /** Idle timeout of a session (default 30 minutes, OWASP Session Management Cheat Sheet). */
  readonly maxAgeMs?: number
}

export const MIN_SECRET_LENGTH = 32
export const DEFAULT_MAX_AGE_MS = 30 * 60 * 1000

export interface ResolvedSessionOptions {
  readonly generateId: () => string
  readonly secret: string
  readonly store: KeyValueStore | undefined
  readonly maxAgeMs: number
}

/** Validates once for every app, so a bad option fails the same way in each (a typed InvalidOptionError). */
export function resolveSessionOptions(options: SessionAppOptions): ResolvedSessionOptions {
  const { generateId, secret, store, maxAgeMs = DEFAULT_MAX_AGE_MS } = options
  // An empty or repeating ID would put every visitor in one session: refused before the first request.
  checkIdGenerator(generateId)
  if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH)
    throw new InvalidOptionError(`secret must be a string of at least ${MIN_SECRET_LENGTH} characters`)
  if (!Number.isSafeInteger(maxAgeMs) || maxAgeMs < 1000)
    throw new InvalidOptionError(`maxAgeMs must be an integer of at least 1000, got ${String(maxAgeMs)}`)
  if (store !== undefined && typeof store.get !== 'function')
    throw new InvalidOptionError('store must be a KeyValueStore')
  return { generateId, secret, store, maxAgeMs }
}

/** The caller's store, or an in-process one the app owns and closes with itself. */
export function sessionStore(options: ResolvedSessionOptions): { store: KeyValueStore; owned: boolean } {
  if (options.store !== undefined) return { store: options.store, owned: false }
  return { store: new MemoryKeyValueStore(Math.min(options.maxAgeMs, 60_000)), owned: true }
}
