import type { PasswordHasher } from '@authlab/core'
import { createHasher as argon2 } from '@authlab/hash-argon2'
import { createHasher as bcrypt } from '@authlab/hash-bcrypt'
import { createPasswordContext, type PasswordContext } from '@authlab/password-context'
import { type BetterAuthOptions, betterAuth } from 'better-auth'
import { memoryAdapter } from 'better-auth/adapters/memory'
import { getMigrations } from 'better-auth/db/migration'
import Database from 'better-sqlite3'
import { afterAll, beforeEach, describe, expect, test } from 'vitest'
import { authlabPassword, authlabRehash } from '../src/index.js'

const BASE_URL = 'http://localhost:3000'
const SECRET = 'authlab-better-auth-test-secret-of-32+chars'
const PASSWORD = 'correct horse battery staple'

/** A hasher that counts its calls and can run `beforeHash` first (to change a password mid-sign-in). */
function counting(inner: PasswordHasher) {
  const calls = { hash: 0, verify: 0 }
  let beforeHash: (() => Promise<void>) | undefined
  const hasher: PasswordHasher = {
    info: inner.info,
    needsRehash: (encoded) => inner.needsRehash(encoded),
    async hash(password) {
      calls.hash++
      const run = beforeHash
      beforeHash = undefined
      await run?.()
      return inner.hash(password)
    },
    verify(encoded, password) {
      calls.verify++
      return inner.verify(encoded, password)
    },
  }
  return {
    hasher,
    calls,
    reset: () => Object.assign(calls, { hash: 0, verify: 0 }),
    onNextHash: (run: () => Promise<void>) => {
      beforeHash = run
    },
  }
}

// Cheap parameters: the routing and the writes are under test, not the cost.
const current = counting(argon2({ m: 1024, t: 1, p: 1 }))
const legacyBcrypt = counting(bcrypt({ cost: 4 }))
const context: PasswordContext = createPasswordContext({
  current: current.hasher,
  legacy: [legacyBcrypt.hasher],
})

interface Adapter {
  readonly name: string
  database(): Promise<BetterAuthOptions['database']>
}

const sqliteFiles: Database.Database[] = []
afterAll(() => {
  for (const db of sqliteFiles) db.close()
})

// better-auth's own adapters: its memory adapter, and SQLite through better-sqlite3 (its Kysely dialect).
const ADAPTERS: readonly Adapter[] = [
  {
    name: 'memory adapter',
    database: async () => memoryAdapter({ user: [], session: [], account: [], verification: [] }),
  },
  {
    name: 'SQLite (better-sqlite3)',
    async database() {
      const db = new Database(':memory:')
      sqliteFiles.push(db)
      const { runMigrations } = await getMigrations({ database: db, emailAndPassword: { enabled: true } })
      await runMigrations()
      return db
    },
  },
]

const options = (database: BetterAuthOptions['database']) =>
  ({
    baseURL: BASE_URL,
    secret: SECRET,
    database,
    telemetry: { enabled: false },
    logger: { disabled: true },
  }) satisfies BetterAuthOptions

/** The app after the move: authlab's hasher and the rehash plugin. */
const authlabApp = (database: BetterAuthOptions['database']) =>
  betterAuth({
    ...options(database),
    emailAndPassword: { enabled: true, password: authlabPassword(context) },
    plugins: [authlabRehash(context)],
  })

/** The app before the move: better-auth's default hasher (scrypt, saltHex:keyHex). */
const defaultApp = (database: BetterAuthOptions['database']) =>
  betterAuth({ ...options(database), emailAndPassword: { enabled: true } })

/** What the helpers use of an app, whichever hasher it was configured with. */
interface App {
  handler(request: Request): Promise<Response>
  readonly $context: Promise<{
    readonly internalAdapter: {
      findCredentialAccount(userId: string): Promise<{ password?: string | null } | null>
      updatePassword(userId: string, password: string): Promise<void>
    }
  }>
  readonly api: {
    signUpEmail(input: {
      body: { email: string; password: string; name: string }
    }): Promise<{ user: { id: string } }>
  }
}

async function post(app: App, path: string, body: Record<string, string>): Promise<Response> {
  return app.handler(
    new Request(`${BASE_URL}/api/auth${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: BASE_URL },
      body: JSON.stringify(body),
    }),
  )
}

async function signUp(app: App, email: string, password = PASSWORD): Promise<string> {
  const { user } = await app.api.signUpEmail({ body: { email, password, name: email.split('@')[0] ?? 'x' } })
  return user.id
}

async function storedHash(app: App, userId: string): Promise<string | null | undefined> {
  const ctx = await app.$context
  return (await ctx.internalAdapter.findCredentialAccount(userId))?.password
}

async function setStoredHash(app: App, userId: string, hash: string): Promise<void> {
  await (await app.$context).internalAdapter.updatePassword(userId, hash)
}

const BETTER_AUTH_DEFAULT = /^[0-9a-f]{32}:[0-9a-f]{128}$/
const CURRENT = /^\$argon2id\$v=19\$m=1024,t=1,p=1\$/

describe.each(ADAPTERS)('better-auth 1.7 with $name', (adapter) => {
  let database: BetterAuthOptions['database']
  let app: ReturnType<typeof authlabApp>
  beforeEach(async () => {
    database = await adapter.database()
    app = authlabApp(database)
    current.reset()
    legacyBcrypt.reset()
  })

  test('sign-up over HTTP stores the current argon2id hash, and it signs in', async () => {
    const response = await post(app, '/sign-up/email', {
      email: 'new@example.com',
      password: PASSWORD,
      name: 'New',
    })
    expect(response.status).toBe(200)
    const { user } = (await response.json()) as { user: { id: string } }
    expect(await storedHash(app, user.id)).toMatch(CURRENT)
    expect((await post(app, '/sign-in/email', { email: 'new@example.com', password: PASSWORD })).status).toBe(
      200,
    )
    expect(await storedHash(app, user.id)).toMatch(CURRENT)
  })

  test("a user with better-auth's default hash signs in through auth.api and is moved to argon2id", async () => {
    const before = defaultApp(database)
    const id = await signUp(before, 'ada@example.com')
    const legacy = await storedHash(before, id)
    expect(legacy).toMatch(BETTER_AUTH_DEFAULT)

    const result = await app.api.signInEmail({ body: { email: 'ada@example.com', password: PASSWORD } })
    expect(result.user.id).toBe(id)
    const upgraded = await storedHash(app, id)
    expect(upgraded).toMatch(CURRENT)
    // One verify of the legacy hash and one hash for its replacement: the plugin reused the sign-in's.
    expect({ ...current.calls }).toEqual({ hash: 1, verify: 0 })
    // No reset: the same password keeps working, now against the argon2id hash.
    expect((await post(app, '/sign-in/email', { email: 'ada@example.com', password: PASSWORD })).status).toBe(
      200,
    )
    expect(await storedHash(app, id)).toBe(upgraded)
  })

  test('a $2b$ bcrypt import signs in over HTTP and is moved to argon2id', async () => {
    const id = await signUp(app, 'grace@example.com')
    await setStoredHash(app, id, await bcrypt({ cost: 4 }).hash(PASSWORD))
    expect(await storedHash(app, id)).toMatch(/^\$2b\$04\$/)
    legacyBcrypt.reset()

    const response = await post(app, '/sign-in/email', { email: 'grace@example.com', password: PASSWORD })
    expect(response.status).toBe(200)
    expect(legacyBcrypt.calls.verify).toBe(1)
    expect(await storedHash(app, id)).toMatch(CURRENT)
  })

  test('a wrong password is refused and the legacy hash is left untouched', async () => {
    const id = await signUp(app, 'linus@example.com')
    const imported = await bcrypt({ cost: 4 }).hash(PASSWORD)
    await setStoredHash(app, id, imported)

    const response = await post(app, '/sign-in/email', {
      email: 'linus@example.com',
      password: 'not the password',
    })
    expect(response.status).toBe(401)
    await expect(
      app.api.signInEmail({ body: { email: 'linus@example.com', password: 'not the password' } }),
    ).rejects.toMatchObject({ statusCode: 401 })
    expect(await storedHash(app, id)).toBe(imported)
  })

  test('a password changed during the sign-in is not overwritten by the upgrade', async () => {
    const id = await signUp(app, 'barbara@example.com')
    await setStoredHash(app, id, await bcrypt({ cost: 4 }).hash(PASSWORD))
    const changed = await argon2({ m: 1024, t: 1, p: 1 }).hash('a new password from another device')
    // The replacement hash is made inside the sign-in's verify; the password changes just before it.
    current.onNextHash(() => setStoredHash(app, id, changed))

    expect(
      (await post(app, '/sign-in/email', { email: 'barbara@example.com', password: PASSWORD })).status,
    ).toBe(200)
    expect(await storedHash(app, id)).toBe(changed)
  })

  test('the upgrade is a compare-and-swap: a change between its read and its write wins', async () => {
    // better-auth's default hasher verifies here, so the plugin verifies and hashes itself, between
    // reading the stored hash and writing the replacement: the change lands in that window.
    const rehashOnly = betterAuth({
      ...options(database),
      emailAndPassword: { enabled: true },
      plugins: [authlabRehash(context)],
    })
    const id = await signUp(rehashOnly, 'margaret@example.com')
    expect(await storedHash(rehashOnly, id)).toMatch(BETTER_AUTH_DEFAULT)
    const changed = await argon2({ m: 1024, t: 1, p: 1 }).hash('changed meanwhile')
    current.onNextHash(() => setStoredHash(rehashOnly, id, changed))

    await rehashOnly.api.signInEmail({ body: { email: 'margaret@example.com', password: PASSWORD } })
    expect(await storedHash(rehashOnly, id)).toBe(changed)

    // Without a concurrent change the same plugin does upgrade.
    const other = await signUp(rehashOnly, 'katherine@example.com')
    await rehashOnly.api.signInEmail({ body: { email: 'katherine@example.com', password: PASSWORD } })
    expect(await storedHash(rehashOnly, other)).toMatch(CURRENT)
  })

  test('a missing user costs one evaluation of the current hasher and no legacy one', async () => {
    await signUp(app, 'someone@example.com')
    current.reset()
    legacyBcrypt.reset()
    const response = await post(app, '/sign-in/email', { email: 'nobody@example.com', password: PASSWORD })
    expect(response.status).toBe(401)
    // better-auth hashes the password for a missing user (api/routes/sign-in, "User not found"), so
    // the answer costs what a real user's verify of a current hash costs: one argon2id evaluation.
    expect({ current: { ...current.calls }, legacy: { ...legacyBcrypt.calls } }).toEqual({
      current: { hash: 1, verify: 0 },
      legacy: { hash: 0, verify: 0 },
    })
  })
})
