// The package ships no types; this declares the part the store matrix uses (src/index.js of 0.1.0).
declare module 'better-sqlite3-session-store' {
  import type { Database } from 'better-sqlite3'
  import type { Store } from 'express-session'

  interface SqliteStoreOptions {
    client: Database
    expired?: { clear?: boolean; intervalMs?: number }
  }

  class SqliteStore extends Store {
    constructor(options: SqliteStoreOptions)
    expired: { clear: boolean; intervalMs: number }
    startInterval(): void
    clearExpiredSessions(): void
    get: Store['get']
    set: Store['set']
    destroy: Store['destroy']
  }

  export default function createSqliteStore(session: { Store: typeof Store }): typeof SqliteStore
}
