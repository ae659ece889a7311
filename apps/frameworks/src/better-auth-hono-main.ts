/**
 * Runs better-auth on Hono as a process of its own, in whichever runtime runs this file (Node, Bun or
 * Deno), so a test or bench drives it over HTTP from outside: `<runtime> better-auth-hono-main.js '<json>'`
 * with `{ connectionString, schema, secret, argon2: { m, t, p } }`. It prints one line,
 * `AUTHLAB_READY {"url":…,"runtime":…}`, once it answers, and exits when its standard input closes (the
 * parent went away) or on SIGTERM. The schema must exist; better-auth's tables are created in it.
 */
import { createHasher } from '@authlab/hash-argon2'
import { createPasswordContext } from '@authlab/password-context'
import pg from 'pg'
import { createBetterAuthHono, READY_MARK } from './better-auth-hono.js'
import { serveFetch } from './serve.js'

interface MainInput {
  readonly connectionString: string
  readonly schema: string
  readonly secret: string
  readonly argon2: { readonly m: number; readonly t: number; readonly p: number }
}

function runtimeName(): string {
  const globals = globalThis as { Bun?: { version: string }; Deno?: { version: { deno: string } } }
  if (globals.Bun) return `bun ${globals.Bun.version}`
  if (globals.Deno) return `deno ${globals.Deno.version.deno}`
  return `node ${process.versions.node}`
}

async function main(input: MainInput): Promise<void> {
  const pool = new pg.Pool({
    connectionString: input.connectionString,
    options: `-c search_path=${input.schema}`,
    max: 4,
  })
  pool.on('error', () => {})
  // The origin is known only once the server listens: requests wait for the app built on it.
  let ready: ((request: Request) => Response | Promise<Response>) | undefined
  const running = await serveFetch('better-auth-hono', (request) =>
    ready ? ready(request) : new Response('starting', { status: 503 }),
  )
  const passwords = createPasswordContext({ current: createHasher(input.argon2) })
  const app = createBetterAuthHono({ database: pool, passwords, secret: input.secret, baseURL: running.url })
  await app.migrate()
  ready = app.app.fetch
  const stop = async () => {
    await running.close()
    await pool.end()
    process.exit(0)
  }
  process.stdin.on('end', stop)
  process.stdin.on('close', stop)
  process.stdin.resume()
  process.on('SIGTERM', stop)
  console.log(`${READY_MARK} ${JSON.stringify({ url: running.url, runtime: runtimeName() })}`)
}

main(JSON.parse(process.argv[2] ?? '{}') as MainInput).catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
