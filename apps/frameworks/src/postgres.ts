import { InvalidOptionError } from '@authlab/core'
import pg from 'pg'

export interface PostgresSchema {
  /** A pool whose every connection works in the schema (`search_path`), so unqualified table names land there. */
  readonly pool: pg.Pool
  readonly schema: string
  /** Drops the schema and everything in it, then ends the pool. */
  drop(): Promise<void>
}

/** Lower-case letters, digits and underscores: a name PostgreSQL takes unquoted, safe to put in SQL text. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/

/**
 * A schema of its own on a PostgreSQL server, so runs sharing one database (parallel test files, other
 * checkouts) never see each other's tables: better-auth creates `user`, `session`, `account` and
 * `verification` in whatever schema comes first on the search path.
 */
export async function openPostgresSchema(
  schema: string,
  connectionString = 'postgres://postgres@127.0.0.1:5432/test',
): Promise<PostgresSchema> {
  if (!SCHEMA_NAME.test(schema))
    throw new InvalidOptionError(`a schema name must match ${SCHEMA_NAME}, got ${JSON.stringify(schema)}`)
  const admin = new pg.Client({ connectionString })
  await admin.connect()
  try {
    await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
  } finally {
    await admin.end()
  }
  const pool = new pg.Pool({ connectionString, options: `-c search_path=${schema}`, max: 4 })
  // pg.Pool emits 'error' for an idle client whose connection dropped; unheard, it ends the process.
  pool.on('error', () => {})
  return {
    pool,
    schema,
    drop: async () => {
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      await pool.end()
    },
  }
}
