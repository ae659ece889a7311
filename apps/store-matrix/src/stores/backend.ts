import type { Store } from 'express-session'

/** A server a store needs, and how the tests and .ci/run start it when it is down. */
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
  /**
   * Stops the store's timers and connections and removes the namespace. It may resolve with a report of
   * what it could not remove (the cluster stores' ClusterCloseOutcome).
   */
  close(): Promise<unknown>
}

/** How a server-backed store reaches its backend, and who hears about connection errors. */
export interface OpenOptions {
  /** Port on 127.0.0.1 to connect to instead of the service's own, e.g. a fault proxy in front of it. */
  readonly port?: number
  /**
   * Told about every connection-level error (reset, refused, timed out). Adapters always attach a
   * listener of their own: an EventEmitter 'error' with no listener throws and ends the process
   * (Node.js events docs, "Error events").
   */
  readonly onConnectionError?: (error: unknown) => void
  /**
   * Most connections a pooled store opens (default 10). The shared services have their own cap
   * (PostgreSQL's `max_connections` is 100 by default) that every test file running at once shares.
   */
  readonly maxConnections?: number
}

/** A session store under test: an npm store package over a real backend. */
export interface StoreBackend {
  /** Stable key for results, e.g. `redis`. */
  readonly name: string
  /** Column label, e.g. `connect-redis 11 + Redis`. */
  readonly label: string
  /** Present for server-backed stores; embedded stores always run. */
  readonly service?: Service
  /**
   * Longest session ID the store keeps intact, where a hard limit exists (a column width, a file-name
   * limit). Longer IDs must fail loudly; the length chart checks both sides of the limit.
   */
  readonly maxIdLength?: number
  /**
   * Has the backend itself close the connections whose client side is 127.0.0.1:`clientPorts` (an
   * operator's kill, a server restart, an idle-timeout reaper); resolves to how many it closed.
   */
  killConnections?(clientPorts: readonly number[]): Promise<number>
  /** Opens a fresh namespace; `scope` is unique per run and made of [a-z0-9_]. */
  open(scope: string, options?: OpenOptions): Promise<OpenStore>
}

/** Callback-style store method → promise, for the latency probe and cleanup code. */
export function call<T>(
  run: (callback: (error: unknown, value?: T) => void) => void,
): Promise<T | undefined> {
  return new Promise((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value))))
}
