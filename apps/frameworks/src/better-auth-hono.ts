import { authlabPassword, authlabRehash } from '@authlab/better-auth'
import { InvalidOptionError } from '@authlab/core'
import type { PasswordContext } from '@authlab/password-context'
import { type BetterAuthOptions, betterAuth } from 'better-auth'
import { getMigrations } from 'better-auth/db/migration'
import { Hono } from 'hono'
import type { ListenOptions, RunningApp } from './options.js'
import { serveFetch } from './serve.js'

/** The first word of the line `runtime-main` prints once it serves, before its JSON. */
export const READY_MARK = 'AUTHLAB_READY'

export interface BetterAuthHonoOptions {
  /** Any database better-auth takes: a `pg` Pool, a better-sqlite3 or `bun:sqlite` Database, an adapter. */
  readonly database: BetterAuthOptions['database']
  /**
   * The hashers, through @authlab/better-auth: new passwords get `current`, stored hashes of any format
   * the context reads still verify, and a legacy one is upgraded on sign-in. Absent: better-auth's own
   * scrypt, untouched, the baseline a bench compares against.
   */
  readonly passwords?: PasswordContext
  /** better-auth's signing secret; at least 32 characters. */
  readonly secret: string
  /** The origin the app is reached at: better-auth builds its URLs on it and checks request origins against it. */
  readonly baseURL: string
}

export interface BetterAuthHono {
  readonly app: Hono
  readonly auth: ReturnType<typeof betterAuth<BetterAuthOptions>>
  /** Creates better-auth's tables (user, session, account, verification) where they are missing. */
  migrate(): Promise<void>
}

/**
 * better-auth mounted on Hono as better-auth's Hono integration documents it
 * (`app.on(['POST', 'GET'], '/api/auth/*', (c) => auth.handler(c.req.raw))`), plus `GET /me`, which reads
 * the session from the request's cookie with `auth.api.getSession`. Nothing here is Node-only: the same
 * module serves on Node (`@hono/node-server`), Bun (`Bun.serve`) and Deno (`Deno.serve`).
 */
export function createBetterAuthHono(options: BetterAuthHonoOptions): BetterAuthHono {
  const { database, passwords, secret, baseURL } = options
  if (typeof secret !== 'string' || secret.length < 32)
    throw new InvalidOptionError('secret must be a string of at least 32 characters')
  if (typeof baseURL !== 'string' || !/^https?:\/\//.test(baseURL))
    throw new InvalidOptionError(`baseURL must be an http(s) origin, got ${String(baseURL)}`)
  const authOptions: BetterAuthOptions = {
    baseURL,
    secret,
    database,
    emailAndPassword: passwords ? { enabled: true, password: authlabPassword(passwords) } : { enabled: true },
    plugins: passwords ? [authlabRehash(passwords)] : [],
    // No background telemetry request from a test or bench process.
    telemetry: { enabled: false },
  }
  const auth = betterAuth(authOptions)
  const app = new Hono()
  app.on(['POST', 'GET'], '/api/auth/*', (c) => auth.handler(c.req.raw))
  app.get('/me', async (c) => {
    const session = await auth.api.getSession({ headers: c.req.raw.headers })
    if (session === null) return c.json({ error: 'not signed in' }, 401)
    return c.json({ email: session.user.email, token: session.session.token })
  })
  return {
    app,
    auth,
    migrate: async () => {
      const { runMigrations } = await getMigrations(auth.options)
      await runMigrations()
    },
  }
}

export interface BetterAuthHonoApp extends RunningApp {
  readonly auth: BetterAuthHono['auth']
}

/**
 * better-auth on Hono served in this process with `serveFetch` (node:http through @hono/node-server on
 * Node), its tables created first. The origin better-auth needs is known only once the server listens,
 * so requests before then answer 503.
 */
export async function startBetterAuthHonoApp(
  options: Omit<BetterAuthHonoOptions, 'baseURL'>,
  listen: ListenOptions = {},
): Promise<BetterAuthHonoApp> {
  let app: BetterAuthHono | undefined
  const running = await serveFetch(
    'better-auth-hono',
    (request) => app?.app.fetch(request) ?? new Response('starting', { status: 503 }),
    listen,
  )
  try {
    const built = createBetterAuthHono({ ...options, baseURL: running.url })
    await built.migrate()
    app = built
    return { ...running, auth: built.auth }
  } catch (error) {
    await running.close()
    throw error
  }
}
