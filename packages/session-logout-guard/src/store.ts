import type { SessionListing } from './listing.js'

/**
 * A session as a store holds it: whatever the framework saves (express-session's `SessionData`,
 * @fastify/session's `Session`), with a `cookie` whose `expires` sets its lifetime. The guard never
 * looks inside, so any store's own session type fits.
 */
export type StoredSession = object

/**
 * The part of the express-session store API both express-session and @fastify/session call
 * (expressjs/session `session/store.js`). Any store written for express-session has it.
 */
export interface SessionStoreLike {
  get(id: string, callback: (error: unknown, session?: StoredSession | null) => void): void
  set(id: string, session: StoredSession, callback?: (error?: unknown) => void): void
  destroy(id: string, callback?: (error?: unknown) => void): void
  touch?(id: string, session: StoredSession, callback?: (error?: unknown) => void): void
  all?(callback: (error: unknown, sessions?: SessionListing | null) => void): void
  length?(callback: (error: unknown, length?: number) => void): void
  clear?(callback?: (error?: unknown) => void): void
}
