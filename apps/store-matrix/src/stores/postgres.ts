import connectPgSimple from 'connect-pg-simple'
import session from 'express-session'
import pg from 'pg'
import { POSTGRES } from '../services.js'
import type { StoreBackend } from './backend.js'

const PgStore = connectPgSimple(session)

/**
 * connect-pg-simple over node-postgres: table `session(sid varchar PRIMARY KEY, sess json, expire)`.
 * Each run gets its own schema, because the store's table.sql names its index "IDX_session_expire"
 * whatever the table is called, so two session tables cannot share a schema.
 */
export const postgresStore: StoreBackend = {
  name: 'postgres',
  label: 'connect-pg-simple + PostgreSQL',
  service: POSTGRES,
  async open(scope) {
    const pool = new pg.Pool({
      host: '127.0.0.1',
      port: POSTGRES.port,
      database: 'test',
      user: process.env.PGUSER ?? 'postgres',
      max: 10,
    })
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
