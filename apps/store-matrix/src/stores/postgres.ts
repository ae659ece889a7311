import connectPgSimple from 'connect-pg-simple'
import session from 'express-session'
import pg from 'pg'
import { POSTGRES } from '../services.js'
import type { StoreBackend } from './backend.js'
import { CONNECT_TIMEOUT_MS, OPERATION_TIMEOUT_MS } from './timeouts.js'

const PgStore = connectPgSimple(session)

function adminConnection() {
  return { host: '127.0.0.1', port: POSTGRES.port, database: 'test', user: process.env.PGUSER ?? 'postgres' }
}

/**
 * connect-pg-simple over node-postgres: table `session(sid varchar PRIMARY KEY, sess json, expire)`.
 * Each run gets its own schema, because the store's table.sql names its index "IDX_session_expire"
 * whatever the table is called, so two session tables cannot share a schema.
 */
export const postgresStore: StoreBackend = {
  name: 'postgres',
  label: 'connect-pg-simple + PostgreSQL',
  service: POSTGRES,
  async killConnections(clientPorts) {
    const admin = new pg.Client(adminConnection())
    await admin.connect()
    try {
      // Idle backends only: the connections a pool keeps between queries, where nothing is waiting for
      // an answer, so only an 'error' listener on the pool hears about it.
      const { rowCount } = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE client_addr = '127.0.0.1' AND client_port = ANY($1::int[]) AND state = 'idle'`,
        [clientPorts],
      )
      return rowCount ?? 0
    } finally {
      await admin.end()
    }
  },
  async open(scope, { port = POSTGRES.port, onConnectionError, maxConnections = 10 } = {}) {
    const pool = new pg.Pool({
      ...adminConnection(),
      port,
      max: maxConnections,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // A query unanswered this long fails, and pool.query then discards its client (pg-pool
      // `release(err)`), so a connection that stopped answering is replaced instead of reused.
      query_timeout: OPERATION_TIMEOUT_MS,
    })
    // An idle pooled client that loses its connection (a backend terminated by an operator or an idle
    // reaper) is emitted as an 'error' on the pool; with no listener that ends the process (node-postgres
    // docs, "pg.Pool": "you probably want to add an event listener"). The pool has already dropped it.
    // connect-pg-simple adds such a listener only to pools it creates itself.
    pool.on('error', (error) => onConnectionError?.(error))
    const schema = `authlab_${scope}`
    await pool.query(`CREATE SCHEMA "${schema}"`)
    const store = new PgStore({
      pool,
      schemaName: schema,
      tableName: 'session',
      createTableIfMissing: true,
      pruneSessionInterval: false,
    })
    return {
      store,
      storedIds: async () => {
        const exists = await pool.query(`SELECT to_regclass('"${schema}"."session"') AS t`)
        if (exists.rows[0]?.t === null) return []
        return (await pool.query<{ sid: string }>(`SELECT sid FROM "${schema}"."session"`)).rows.map(
          (r) => r.sid,
        )
      },
      close: async () => {
        await store.close()
        await pool.query(`DROP SCHEMA "${schema}" CASCADE`)
        await pool.end()
      },
    }
  },
}
