import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import createSqliteStore from 'better-sqlite3-session-store'
import session from 'express-session'
import type { StoreBackend } from './backend.js'

const SqliteStore = createSqliteStore(session)

/**
 * better-sqlite3-session-store 0.1.0 starts its expiry sweep with a bare `setInterval` it never keeps, and
 * its `expired.clear: false` is ignored (`clear || true`): the timer can be neither stopped nor unref'd
 * from outside and keeps the process alive. This subclass keeps the handle so `close()` can stop it.
 */
class ClosableSqliteStore extends SqliteStore {
  private sweep: NodeJS.Timeout | undefined

  override startInterval(): void {
    this.sweep = setInterval(() => this.clearExpiredSessions(), this.expired.intervalMs)
    this.sweep.unref()
  }

  close(): void {
    clearInterval(this.sweep)
  }
}

/** SQLite through better-sqlite3 13 and better-sqlite3-session-store: table `sessions(sid TEXT PRIMARY KEY, ...)`. */
export const sqliteStore: StoreBackend = {
  name: 'sqlite',
  label: 'better-sqlite3-session-store',
  async open(scope) {
    const dir = await mkdtemp(join(tmpdir(), `authlab-${scope}-`))
    const db = new Database(join(dir, 'sessions.db'))
    // WAL lets the read-back queries run beside the store's writes without SQLITE_BUSY.
    db.pragma('journal_mode = WAL')
    const store = new ClosableSqliteStore({ client: db, expired: { clear: true, intervalMs: 15 * 60_000 } })
    const selectIds = db.prepare<[], { sid: string }>('SELECT sid FROM sessions')
    return {
      store,
      storedIds: async () => selectIds.all().map((row) => row.sid),
      close: async () => {
        store.close()
        db.close()
        await rm(dir, { recursive: true, force: true })
      },
    }
  },
}
