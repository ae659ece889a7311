/**
 * Serves the Hono apps as a process of its own, in whichever runtime runs this file (Node, Bun or Deno),
 * so a test or bench drives them over HTTP from outside: `<runtime> runtime-main.js '<json>'`, with
 *
 * - `session: { generator, secret }`: the @hono/session app of hono.ts under `/session`, its IDs from
 *   the named package's `generateId` (`default` for @hono/session's own), sessions in memory;
 * - `betterAuth: { connectionString, schema, secret, argon2: { m, t, p } }`: better-auth on Hono with
 *   @authlab/better-auth at `/api/auth/*` and `/me`, its tables created in the schema (which must exist).
 *
 * It prints one line, `AUTHLAB_READY {"url":…,"runtime":…}`, once it answers, and exits when its standard
 * input closes (the parent went away) or on SIGTERM.
 */
import { createHasher } from '@authlab/hash-argon2'
import { createPasswordContext } from '@authlab/password-context'
import { generateId as honoSessionDefault } from '@hono/session/cookies'
import { Hono } from 'hono'
import pg from 'pg'
import { createBetterAuthHono, READY_MARK } from './better-auth-hono.js'
import { createHonoApp } from './hono.js'
import { MemoryKeyValueStore } from './kv.js'
import { serveFetch } from './serve.js'

interface MainInput {
  readonly session?: { readonly generator: string; readonly secret: string }
  readonly betterAuth?: {
    readonly connectionString: string
    readonly schema: string
    readonly secret: string
    readonly argon2: { readonly m: number; readonly t: number; readonly p: number }
  }
}

function runtimeName(): string {
  const globals = globalThis as { Bun?: { version: string }; Deno?: { version: { deno: string } } }
  if (globals.Bun) return `bun ${globals.Bun.version}`
  if (globals.Deno) return `deno ${globals.Deno.version.deno}`
  return `node ${process.versions.node}`
}

async function generatorOf(name: string): Promise<() => string> {
  if (name === 'default') return () => honoSessionDefault()
  const { generateId } = (await import(name)) as { generateId: () => string }
  return generateId
}

async function main(input: MainInput): Promise<void> {
  const root = new Hono()
  // The origin better-auth needs is known only once the server listens: requests wait for the app.
  let ready: ((request: Request) => Response | Promise<Response>) | undefined
  const running = await serveFetch(input.betterAuth ? 'better-auth-hono' : 'hono', (request) =>
    ready ? ready(request) : new Response('starting', { status: 503 }),
  )
  const cleanups: (() => Promise<void>)[] = [() => running.close()]
  if (input.session) {
    const store = new MemoryKeyValueStore()
    cleanups.push(() => store.close())
    const generateId = await generatorOf(input.session.generator)
    root.route('/session', createHonoApp({ generateId, secret: input.session.secret, store }))
  }
  if (input.betterAuth) {
    const { connectionString, schema, secret, argon2 } = input.betterAuth
    const pool = new pg.Pool({ connectionString, options: `-c search_path=${schema}`, max: 4 })
    pool.on('error', () => {})
    cleanups.push(() => pool.end())
    const passwords = createPasswordContext({ current: createHasher(argon2) })
    const app = createBetterAuthHono({ database: pool, passwords, secret, baseURL: running.url })
    await app.migrate()
    root.route('/', app.app)
  }
  ready = root.fetch
  const stop = async () => {
    for (const cleanup of cleanups) await cleanup()
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
