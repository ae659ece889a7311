import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { requireRuntime } from '@authlab/runtimes/availability'
import { hashPassword } from 'better-auth/crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { READY_MARK } from '../src/better-auth-hono.js'
import { openPostgresSchema, type PostgresSchema } from '../src/postgres.js'
import { Browser } from './browser.js'
import { POSTGRES, runScope, serviceSkipReason } from './services.js'

const MAIN = resolve(import.meta.dirname, '../dist/esm/runtime-main.js')
const RUNTIMES = ['node', 'bun', 'deno'] as const
type RuntimeId = (typeof RUNTIMES)[number]
const PASSWORD = 'correct horse battery staple'
/** Cheap argon2id: the routing, the writes and the answers are under test here, not the cost. */
const ARGON2 = { m: 1024, t: 1, p: 1 }

interface Server {
  readonly process: ChildProcess
  readonly url: string
  readonly runtime: string
  readonly db: PostgresSchema
}

/** Starts the app in `id` (the workspace's Node, or Bun and Deno from tools/runtimes) on a schema of its own. */
async function startIn(id: RuntimeId): Promise<Server> {
  const db = await openPostgresSchema(runScope(`authlab_fw_ba_${id}`))
  const runtime = requireRuntime(id)
  if (runtime.kind !== 'process') throw new Error(`${id} is not a process runtime`)
  const input = {
    session: { generator: '@authlab/id-fast', secret: randomBytes(32).toString('base64') },
    betterAuth: {
      connectionString: 'postgres://postgres@127.0.0.1:5432/test',
      schema: db.schema,
      secret: randomBytes(32).toString('base64'),
      argon2: ARGON2,
    },
  }
  const child = spawn(
    id === 'node' ? process.execPath : runtime.command,
    [...(id === 'node' ? [] : runtime.args), MAIN, JSON.stringify(input)],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  )
  let stderr = ''
  child.stderr?.on('data', (chunk) => {
    stderr += chunk
  })
  const ready = await new Promise<{ url: string; runtime: string }>((done, fail) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })
    lines.on('line', (line) => {
      if (line.startsWith(READY_MARK)) done(JSON.parse(line.slice(READY_MARK.length)))
    })
    child.once('exit', (code) => fail(new Error(`${id} exited (${code}) before serving: ${stderr.trim()}`)))
  })
  return { process: child, db, ...ready }
}

/** A user as better-auth's own sign-up would have stored them before the app used authlab: its default scrypt hash. */
async function insertLegacyUser(db: PostgresSchema, email: string): Promise<void> {
  const id = randomBytes(16).toString('hex')
  await db.pool.query(
    `INSERT INTO "user" (id, name, email, "emailVerified", "createdAt", "updatedAt") VALUES ($1, 'Legacy', $2, false, now(), now())`,
    [id, email],
  )
  await db.pool.query(
    `INSERT INTO account (id, "accountId", "providerId", "userId", password, "createdAt", "updatedAt") VALUES ($1, $2, 'credential', $2, $3, now(), now())`,
    [randomBytes(16).toString('hex'), id, await hashPassword(PASSWORD)],
  )
}

async function storedHash(db: PostgresSchema, email: string): Promise<string> {
  const found = await db.pool.query<{ password: string }>(
    `SELECT a.password FROM account a JOIN "user" u ON u.id = a."userId" WHERE u.email = $1`,
    [email],
  )
  return found.rows[0]?.password ?? ''
}

const post = (browser: Browser, path: string, json: object) =>
  browser.json<Record<string, unknown>>(`/api/auth/${path}`, { method: 'POST', json })

const skip = await serviceSkipReason(POSTGRES)
const servers = new Map<RuntimeId, Server>()

describe.skipIf(skip !== undefined)(
  'Hono on Node, Bun and Deno: better-auth on PostgreSQL, @hono/session',
  () => {
    // The three runtimes start at once: most of a start is loading better-auth and creating its tables.
    beforeAll(async () => {
      const started = await Promise.all(RUNTIMES.map(async (id) => [id, await startIn(id)] as const))
      for (const [id, server] of started) servers.set(id, server)
    }, 120_000)
    afterAll(async () => {
      for (const server of servers.values()) {
        server.process.stdin?.end()
        server.process.kill()
        await server.db.drop()
      }
    })

    test.each(RUNTIMES)('%s: sign-up, sign-in and a legacy user upgraded on sign-in', async (id) => {
      const server = servers.get(id) as Server
      expect(server.runtime.split(' ')[0]).toBe(id)
      const ada = new Browser(server.url)
      const signUp = await post(ada, 'sign-up/email', {
        email: 'ada@example.org',
        password: PASSWORD,
        name: 'Ada',
      })
      expect(signUp.status).toBe(200)
      expect(await storedHash(server.db, 'ada@example.org'), 'new users get argon2id').toMatch(
        /^nfc:\$argon2id\$/,
      )

      const wrong = await post(new Browser(server.url), 'sign-in/email', {
        email: 'ada@example.org',
        password: 'nope',
      })
      expect(wrong.status).toBe(401)
      const again = new Browser(server.url)
      expect(
        (await post(again, 'sign-in/email', { email: 'ada@example.org', password: PASSWORD })).status,
      ).toBe(200)
      expect((await again.json('/me')).body).toMatchObject({ email: 'ada@example.org' })

      await insertLegacyUser(server.db, 'grace@example.org')
      expect(await storedHash(server.db, 'grace@example.org')).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/)
      const grace = new Browser(server.url)
      expect(
        (await post(grace, 'sign-in/email', { email: 'grace@example.org', password: PASSWORD })).status,
      ).toBe(200)
      expect((await grace.json('/me')).body).toMatchObject({ email: 'grace@example.org' })
      // better-auth hashed NFKC, so its upgrade keeps NFKC: every spelling that signed in still does.
      expect(await storedHash(server.db, 'grace@example.org'), 'upgraded on sign-in').toMatch(
        /^nfkc:\$argon2id\$/,
      )
      const later = new Browser(server.url)
      expect(
        (await post(later, 'sign-in/email', { email: 'grace@example.org', password: PASSWORD })).status,
      ).toBe(200)
    })

    test.each(RUNTIMES)('%s: @hono/session with @authlab/id-fast as its generateId', async (id) => {
      const server = servers.get(id) as Server
      const browser = new Browser(`${server.url}/session`)
      // Hono's router is strict about the trailing slash: the mounted app's `/` is `/session`.
      const first = await browser.json<{ id: string; visits: number }>('')
      expect(first.body.visits).toBe(1)
      expect(first.body.id).toMatch(/^[A-Za-z0-9_-]{32}$/)
      expect(await browser.json(''), 'the cookie sent back finds the same session').toEqual({
        status: 200,
        body: { id: first.body.id, visits: 2 },
      })
      expect((await browser.request('/logout', { method: 'POST' })).status).toBe(204)
      expect((await browser.json('/me')).status).toBe(401)
    })
  },
)
if (skip !== undefined) test.skip(`Hono on Node, Bun and Deno: ${skip}`, () => {})
