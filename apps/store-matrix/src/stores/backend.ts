import type { Store } from 'express-session'

/** A server a store needs, and how GUIDE.md §2 / .ci/run start it when it is down. */
export interface Service {
  readonly name: string
  readonly port: number
  readonly start: string
}

/** One opened namespace (key prefix, table, directory) of a store backend. */
export interface OpenStore {
  /**
   * The store instance. Give it to at most one express-session middleware: express-session overwrites
   * `store.generate` on the instance it uses (expressjs/session#521). @fastify/session may share it.
   */
  readonly store: Store
  /** Where a file-based store writes; the hostile-input check asserts nothing changes beside it. */
  readonly directory?: string
  /** Every session ID the backend holds in this namespace, read directly (Redis keys, SQL rows, file names). */
  storedIds(): Promise<string[]>
  /** Stops the store's timers and connections and removes the namespace. */
  close(): Promise<void>
}

/** A session store under test: an npm store package over a real backend. */
export interface StoreBackend {
  /** Stable key for results, e.g. `redis`. */
  readonly name: string
  /** Column label, e.g. `connect-redis 9 + Redis`. */
  readonly label: string
  /** Present for server-backed stores; embedded stores always run. */
  readonly service?: Service
  /**
   * Longest session ID the store keeps intact, where a hard limit exists (a column width, a file-name
   * limit). Longer IDs must fail loudly; the length chart checks both sides of the limit.
   */
  readonly maxIdLength?: number
  /** Opens a fresh namespace; `scope` is unique per run and made of [a-z0-9_]. */
  open(scope: string): Promise<OpenStore>
}

/** Callback-style store method → promise, for the latency probe and cleanup code. */
export function call<T>(
  run: (callback: (error: unknown, value?: T) => void) => void,
): Promise<T | undefined> {
  return new Promise((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value))))
}
