import { checkIdGenerator, InvalidOptionError } from '@authlab/core'
import type { Store } from 'express-session'
import type { UserDirectory } from './users.js'

/** Both frameworks use this cookie name, so one framework's cookie is read by the other on a shared store. */
export const SESSION_COOKIE_NAME = 'authlab.sid'

/**
 * The prefix express-session puts before a signed value (cookie-signature's format). @fastify/session
 * gets it as `cookiePrefix` so the two frameworks' cookies are interchangeable.
 */
export const SIGNED_COOKIE_PREFIX = 's:'

/** @fastify/session refuses shorter secrets; the same floor is applied to express-session. */
export const MIN_SECRET_LENGTH = 32

/** Login bodies are two short strings; anything bigger is refused with 413 before parsing. */
export const BODY_LIMIT_BYTES = 4096

/**
 * OWASP Session Management Cheat Sheet ("Session Expiration"): idle timeouts of 15–30 minutes for
 * ordinary applications; `rolling` makes it an idle timeout by renewing the expiry on every response.
 */
export const DEFAULT_MAX_AGE_MS = 30 * 60 * 1000

export interface SessionServerOptions {
  /** Session-ID generator: express-session `genid`, @fastify/session `idGenerator`. Must be synchronous. */
  generateId: (request?: unknown) => string
  /** The accounts `POST /login` checks, with the password hasher they were hashed with. */
  users: UserDirectory
  /** HMAC key for the session cookie signature; at least 32 characters. */
  secret: string
  /**
   * An express-session-compatible store (`get`/`set`/`destroy`, callback style), which @fastify/session
   * accepts too. Default: the framework's own in-memory store. express-session overwrites
   * `store.generate`, so never hand one instance to two express-session middlewares (expressjs/session#521).
   */
  store?: Store
  /** Idle timeout of a session (default 30 minutes). */
  maxAgeMs?: number
  /**
   * Save the session, and wait for the store to confirm, before answering a route that creates or
   * changes one (`GET /`, `POST /login`), so a failed write becomes a 5xx. Off by default, which keeps
   * each framework's own behaviour: express-session writes after the response has gone out (a failed
   * `store.set` still answers 200 with a cookie for a session that was never stored), @fastify/session
   * writes before it (500).
   */
  saveBeforeReply?: boolean
  /**
   * Put the internal error message in 5xx bodies. Off by default (an error message can leak backend
   * details); the store matrix turns it on to report why a store failed.
   */
  exposeErrors?: boolean
  /**
   * Called with every server-side (5xx) error, including those express-session reports only after the
   * response has gone out (a failed `store.set` at the end of a request: expressjs/session index.js).
   */
  onError?: (error: unknown) => void
}

export type ResolvedServerOptions = Required<Omit<SessionServerOptions, 'store' | 'onError'>> &
  Pick<SessionServerOptions, 'store' | 'onError'>

/** Validates once, for both frameworks, so a bad option fails the same way in each. */
export function resolveServerOptions(options: SessionServerOptions): ResolvedServerOptions {
  const {
    generateId,
    users,
    secret,
    store,
    maxAgeMs = DEFAULT_MAX_AGE_MS,
    exposeErrors = false,
    saveBeforeReply = false,
    onError,
  } = options
  if (typeof generateId !== 'function')
    throw new InvalidOptionError('generateId must be a synchronous function')
  // An empty or repeating ID would put every visitor in one session (alice's cookie reading bob's):
  // refused before the first request, as is output off the generator's declared length or alphabet.
  checkIdGenerator(generateId)
  if (typeof users?.verify !== 'function') throw new InvalidOptionError('users must be a UserDirectory')
  if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) {
    throw new InvalidOptionError(`secret must be a string of at least ${MIN_SECRET_LENGTH} characters`)
  }
  if (!Number.isSafeInteger(maxAgeMs) || maxAgeMs < 1000) {
    throw new InvalidOptionError(`maxAgeMs must be an integer of at least 1000, got ${String(maxAgeMs)}`)
  }
  if (onError !== undefined && typeof onError !== 'function')
    throw new InvalidOptionError('onError must be a function')
  if (typeof saveBeforeReply !== 'boolean') throw new InvalidOptionError('saveBeforeReply must be a boolean')
  return { generateId, users, secret, store, maxAgeMs, exposeErrors, saveBeforeReply, onError }
}
