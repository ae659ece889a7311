import createMySqlStore from 'express-mysql-session'
import session from 'express-session'
import mysql from 'mysql2/promise'
import { MARIADB } from '../services.js'
import type { StoreBackend } from './backend.js'

const MySqlStore = createMySqlStore(session)
const CONNECTION = { host: '127.0.0.1', port: MARIADB.port, user: 'root', database: 'test' }

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
  async open(scope) {
    const table = `authlab_${scope}`
    const store = new MySqlStore({
      ...CONNECTION,
      connectionLimit: 10,
      clearExpired: false,
      createDatabaseTable: true,
      schema: { tableName: table },
    })
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
        await raw.query(`DROP TABLE IF EXISTS \`${table}\``)
        await raw.end()
      },
    }
  },
}
