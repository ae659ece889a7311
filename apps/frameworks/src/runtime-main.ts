/**
 * Serves the apps as a process of its own, in whichever runtime runs this file (Node, Bun or Deno), so a
 * test or bench drives them over HTTP from outside: `<runtime> runtime-main.js '<json>'`, with
 *
 * - `session: { generator, secret, pick? }`: the @hono/session app of hono.ts under `/session`, its IDs
 *   from the named package's `generateId` (`default` for @hono/session's own), sessions in memory;
 * - `koa: { generator, secret, pick? }` (Node): the koa-session app of koa.ts at `/`, on its external
 *   store (in memory), `default` for koa-session's own `genid`; served alone;
 * - `betterAuth: { connectionString, schema, secret, argon2: { m, t, p }, hasher?, timeVerify? }`:
 *   better-auth on Hono at `/api/auth/*` and `/me`, its tables created in the schema (which must exist),
 *   hashing with @authlab/better-auth's argon2id (`hasher: 'argon2id'`, the default) or better-auth's own
 *   scrypt (`'better-auth'`).
 *
 * `pick: { header, generators }` serves several generators at once, each request by the one whose index
 * its `header` names (an app of its own per generator over one shared store, so the choice costs every
 * generator the same header read); a request without it gets `generator`'s app.
 *
 * It prints one line, `AUTHLAB_READY {"url":…,"runtime":…}`, once it answers (with `timeVerify`, also
 * `verifyMs`: the mean ms of one verify of the password hasher better-auth calls, timed here before
 * serving), and exits when its standard input closes (the parent went away) or on SIGTERM.
 */
import type { RequestListener } from 'node:http'
import { authlabPassword } from '@authlab/better-auth'
import { createHasher } from '@authlab/hash-argon2'
import { createPasswordContext } from '@authlab/password-context'
import { generateId as honoSessionDefault } from '@hono/session/cookies'
import { hashPassword, verifyPassword } from 'better-auth/crypto'
import { Hono } from 'hono'
import pg from 'pg'
import { createBetterAuthHono, READY_MARK } from './better-auth-hono.js'
import { createHonoApp } from './hono.js'
import { MemoryKeyValueStore } from './kv.js'
import type { RunningApp } from './options.js'
import { serveFetch } from './serve.js'

interface Generators {
  readonly generator: string
  readonly pick?: { readonly header: string; readonly generators: readonly string[] }
  readonly secret: string
}

/** How long to time verifies for `verifyMs`: at least `minCalls` calls and `minMs`, after `warmups`. */
interface TimeVerify {
  readonly warmups: number
  readonly minCalls: number
  readonly minMs: number
}

interface MainInput {
  readonly session?: Generators
  readonly koa?: Generators
  readonly betterAuth?: {
    readonly connectionString: string
    readonly schema: string
    readonly secret: string
    readonly argon2: { readonly m: number; readonly t: number; readonly p: number }
    readonly hasher?: 'argon2id' | 'better-auth'
    readonly timeVerify?: TimeVerify
  }
}

function runtimeName(): string {
  const globals = globalThis as { Bun?: { version: string }; Deno?: { version: { deno: string } } }
  if (globals.Bun) return `bun ${globals.Bun.version}`
  if (globals.Deno) return `deno ${globals.Deno.version.deno}`
  return `node ${process.versions.node}`
}

/** A package's `generateId`, or the app's own default (`own`) for `default`. */
async function generatorOf(name: string, own: () => string): Promise<() => string> {
  if (name === 'default') return own
  const { generateId } = (await import(name)) as { generateId: () => string }
  return generateId
}

/** Each name of `spec` (its `pick`, else its `generator`) made into an app by `make`, in order. */
async function appsOf<A>(spec: Generators, own: () => string, make: (generate: () => string) => A) {
  const names = spec.pick?.generators ?? [spec.generator]
  return Promise.all(names.map(async (name) => make(await generatorOf(name, own))))
}

/** The index a request's header names among `count` apps, or undefined (absent, not an index). */
function pickedIndex(value: string | null | undefined, count: number): number | undefined {
  if (value === null || value === undefined) return 0
  const index = Number(value)
  return Number.isInteger(index) && index >= 0 && index < count ? index : undefined
}

/** The @hono/session app per generator under `/session`, over one store. */
async function sessionHandler(spec: Generators, cleanups: (() => Promise<void>)[]) {
  const store = new MemoryKeyValueStore()
  cleanups.push(() => store.close())
  const apps = await appsOf(
    spec,
    () => honoSessionDefault(),
    (generateId) => new Hono().route('/session', createHonoApp({ generateId, secret: spec.secret, store })),
  )
  return (request: Request) => {
    const index = pickedIndex(spec.pick && request.headers.get(spec.pick.header), apps.length)
    const app = index === undefined ? undefined : apps[index]
    return app ? app.fetch(request) : new Response('no such generator', { status: 400 })
  }
}

/** koa-session's app per generator (`default`: koa-session's own genid), over one store, on node:http. */
async function serveKoa(spec: Generators): Promise<RunningApp> {
  const [{ createKoaApp }, { frameworkDefaults }, { listenNode }] = await Promise.all([
    import('./koa.js'),
    import('./defaults.js'),
    import('./listen.js'),
  ])
  const own = frameworkDefaults().find((d) => d.package === 'koa-session')?.generate
  if (!own) throw new Error("koa-session's default genid was not found")
  const store = new MemoryKeyValueStore()
  const handlers = await appsOf(spec, own, (generateId) =>
    createKoaApp({ generateId, secret: spec.secret, store }).callback(),
  )
  const handler: RequestListener = (request, response) => {
    const value = spec.pick && request.headers[spec.pick.header]
    const index = pickedIndex(typeof value === 'string' ? value : undefined, handlers.length)
    const handle = index === undefined ? undefined : handlers[index]
    if (handle) return void handle(request, response)
    response.statusCode = 400
    response.end('no such generator')
  }
  return listenNode('koa', handler, {}, () => store.close())
}

/** The hash and verify better-auth calls: @authlab/better-auth's argon2id, or its own scrypt. */
function passwordsOf(input: NonNullable<MainInput['betterAuth']>) {
  if (input.hasher === 'better-auth')
    return {
      passwords: undefined,
      hash: hashPassword,
      verify: (hash: string, password: string) => verifyPassword({ hash, password }),
    } as const
  const passwords = createPasswordContext({ current: createHasher(input.argon2) })
  const own = authlabPassword(passwords)
  return {
    passwords,
    hash: own.hash,
    verify: (hash: string, password: string) => own.verify({ hash, password }),
  } as const
}

/** The mean ms of one verify, as the measuring loop of the bench times it: warmed, then whole calls. */
async function timeVerify(
  { hash, verify }: Pick<ReturnType<typeof passwordsOf>, 'hash' | 'verify'>,
  plan: TimeVerify,
): Promise<number> {
  const password = 'a password only the timing knows'
  const stored = await hash(password)
  for (let i = 0; i < plan.warmups; i++) await verify(stored, password)
  const started = performance.now()
  let calls = 0
  while (calls < plan.minCalls || performance.now() - started < plan.minMs) {
    if (!(await verify(stored, password))) throw new Error('the timed verify refused its own password')
    calls++
  }
  return (performance.now() - started) / calls
}

async function main(input: MainInput): Promise<void> {
  const root = new Hono()
  // The origin better-auth needs is known only once the server listens: requests wait for the app.
  let ready: ((request: Request) => Response | Promise<Response>) | undefined
  const running = input.koa
    ? await serveKoa(input.koa)
    : await serveFetch(input.betterAuth ? 'better-auth-hono' : 'hono', (request) =>
        ready ? ready(request) : new Response('starting', { status: 503 }),
      )
  const cleanups: (() => Promise<void>)[] = [() => running.close()]
  const session = input.session && (await sessionHandler(input.session, cleanups))
  let verifyMs: number | undefined
  if (input.betterAuth) {
    const { connectionString, schema, secret } = input.betterAuth
    const pool = new pg.Pool({ connectionString, options: `-c search_path=${schema}`, max: 4 })
    pool.on('error', () => {})
    cleanups.push(() => pool.end())
    const { passwords, hash, verify } = passwordsOf(input.betterAuth)
    const app = createBetterAuthHono({ database: pool, passwords, secret, baseURL: running.url })
    await app.migrate()
    root.route('/', app.app)
    const plan = input.betterAuth.timeVerify
    if (plan) verifyMs = await timeVerify({ hash, verify }, plan)
  }
  // The session app alone is served without a router in front; beside better-auth, by its path.
  ready =
    session && !input.betterAuth
      ? session
      : (request) =>
          session && new URL(request.url).pathname.startsWith('/session')
            ? session(request)
            : root.fetch(request)
  const stop = async () => {
    for (const cleanup of cleanups) await cleanup()
    process.exit(0)
  }
  process.stdin.on('end', stop)
  process.stdin.on('close', stop)
  process.stdin.resume()
  process.on('SIGTERM', stop)
  const answer = { url: running.url, runtime: runtimeName(), ...(verifyMs === undefined ? {} : { verifyMs }) }
  console.log(`${READY_MARK} ${JSON.stringify(answer)}`)
}

main(JSON.parse(process.argv[2] ?? '{}') as MainInput).catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
