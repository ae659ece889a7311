import createMySqlStore from 'express-mysql-session'
import session from 'express-session'
import mysqlCallbacks from 'mysql2'
import mysql from 'mysql2/promise'
import { MARIADB } from '../services.js'
import type { StoreBackend } from './backend.js'
import { CONNECT_TIMEOUT_MS, OPERATION_TIMEOUT_MS } from './timeouts.js'

const MySqlStore = createMySqlStore(session)
const CONNECTION = { host: '127.0.0.1', port: MARIADB.port, user: 'root', database: 'test' }

type QueryCallback = (error: Error | null, rows?: unknown, fields?: unknown) => void

/**
 * The connection express-mysql-session queries through (it calls only `query(sql, values, callback)`
 * and, on close, `end()`): a mysql2 pool where every query has a deadline, and a connection whose
 * query timed out is destroyed rather than returned to the pool. mysql2's query `timeout` only fails
 * the query; the connection would still wait for the answer, and every later query on it with it.
 */
function poolWithDeadlines(pool: mysqlCallbacks.Pool) {
  return {
    query(sql: string, values: mysqlCallbacks.QueryOptions['values'], callback: QueryCallback) {
      pool.getConnection((error, connection) => {
        if (error) return callback(error)
        connection.query({ sql, values, timeout: OPERATION_TIMEOUT_MS }, (queryError, rows, fields) => {
          if (queryError?.code === 'PROTOCOL_SEQUENCE_TIMEOUT' || queryError?.fatal) connection.destroy()
          else connection.release()
          callback(queryError, rows, fields)
        })
      })
    },
    end: () => pool.promise().end(),
  }
}

/**
 * express-mysql-session over mysql2 and MariaDB: `session_id varchar(128) COLLATE utf8mb4_bin`. With
 * MariaDB's default STRICT_TRANS_TABLES a longer ID is an error ("Data too long"); without strict mode
 * it would be silently truncated, which the length chart would report as such.
 */
export const mysqlStore: StoreBackend = {
  name: 'mysql',
  label: 'express-mysql-session + MariaDB',
  service: MARIADB,
  maxIdLength: 128,
  async killConnections(clientPorts) {
    const admin = await mysql.createConnection(CONNECTION)
    try {
      const hosts = clientPorts.flatMap((port) => [`127.0.0.1:${port}`, `localhost:${port}`])
      if (hosts.length === 0) return 0
      const [rows] = await admin.query<mysql.RowDataPacket[]>(
        'SELECT id FROM information_schema.processlist WHERE host IN (?)',
        [hosts],
      )
      for (const row of rows) await admin.query(`KILL ${Number(row.id)}`)
      return rows.length
    } finally {
      await admin.end()
    }
  },
  async open(scope, { port = MARIADB.port, onConnectionError, maxConnections = 10 } = {}) {
    const table = `authlab_${scope}`
    const pool = mysqlCallbacks.createPool({
      ...CONNECTION,
      port,
      connectionLimit: maxConnections,
      connectTimeout: CONNECT_TIMEOUT_MS,
    })
    // mysql2 drops a pooled connection that fails by itself; listening keeps the report.
    pool.on('connection', (connection) => connection.on('error', (error) => onConnectionError?.(error)))
    const store = new MySqlStore(
      { clearExpired: false, createDatabaseTable: true, schema: { tableName: table } },
      poolWithDeadlines(pool) as unknown as ConstructorParameters<typeof MySqlStore>[1],
    )
    await store.onReady()
    const raw = await mysql.createConnection(CONNECTION)
    return {
      store,
      storedIds: async () => {
        const [rows] = await raw.query<mysql.RowDataPacket[]>(`SELECT session_id FROM \`${table}\``)
        return rows.map((row) => String(row.session_id))
      },
      close: async () => {
        await store.close()
        await pool.promise().end()
        await raw.query(`DROP TABLE IF EXISTS \`${table}\``)
        await raw.end()
      },
    }
  },
}
