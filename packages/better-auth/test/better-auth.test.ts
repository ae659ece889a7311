import { OverloadError, type Password, type PasswordHasher } from '@authlab/core'
import { createHasher as argon2 } from '@authlab/hash-argon2'
import { createHasher as bcrypt } from '@authlab/hash-bcrypt'
import {
  BETTER_AUTH_SCRYPT,
  betterAuthScrypt,
  createPasswordContext,
  type PasswordContextOptions,
} from '@authlab/password-context'
import { type BetterAuthOptions, betterAuth } from 'better-auth'
import { memoryAdapter } from 'better-auth/adapters/memory'
import { getMigrations } from 'better-auth/db/migration'
import Database from 'better-sqlite3'
import { afterAll, beforeEach, describe, expect, test } from 'vitest'
import { authlabPassword, authlabRehash } from '../src/index.js'

const BASE_URL = 'http://localhost:3000'
const SECRET = 'authlab-better-auth-test-secret-of-32+chars'
const PASSWORD = 'correct horse battery staple'

/**
 * A hasher that records its work (hash calls, and each verify that ran to an answer: one its policy
 * refused did no work) and can run `beforeHash` first (to change a password mid-sign-in) or fail its
 * next hash (an overloaded pool).
 */
function counting(inner: PasswordHasher) {
  const calls = { hash: 0, verify: 0 }
  let beforeHash: (() => Promise<void>) | undefined
  let nextHashError: unknown
  const hasher: PasswordHasher = {
    info: inner.info,
    needsRehash: (encoded) => inner.needsRehash(encoded),
    async hash(password: Password) {
      calls.hash++
      const [run, error] = [beforeHash, nextHashError]
      beforeHash = undefined
      nextHashError = undefined
      await run?.()
      if (error !== undefined) throw error
      return inner.hash(password)
    },
    async verify(encoded: string, password: Password) {
      const valid = await inner.verify(encoded, password)
      calls.verify++
      return valid
    },
  }
  return {
    hasher,
    calls,
    reset: () => Object.assign(calls, { hash: 0, verify: 0 }),
    onNextHash: (run: () => Promise<void>) => {
      beforeHash = run
    },
    failNextHash: (error: unknown) => {
      nextHashError = error
    },
  }
}

/**
 * The configurations the README shows, with cheap parameters: the routing, the writes and the answers
 * are under test, not the cost. The spied copy of better-auth's scrypt reader, listed last in `legacy`,
 * replaces the built-in one without changing any routing or the default `missingUserFormat`.
 */
const CONFIGURATIONS: readonly {
  name: string
  missingUserFormat?: PasswordContextOptions['missingUserFormat']
}[] = [
  { name: "better-auth's users and bcrypt imports", missingUserFormat: BETTER_AUTH_SCRYPT },
  { name: 'bcrypt imports only (missingUserFormat left to its default)' },
]

function hashers(missingUserFormat?: PasswordContextOptions['missingUserFormat']) {
  const current = counting(argon2({ m: 1024, t: 1, p: 1 }))
  const legacyBcrypt = counting(bcrypt({ cost: 4 }))
  const legacyScrypt = counting(betterAuthScrypt)
  const context = createPasswordContext({
    current: current.hasher,
    legacy: [legacyBcrypt.hasher, legacyScrypt.hasher],
    ...(missingUserFormat ? { missingUserFormat } : {}),
  })
  const reset = () => {
    for (const spy of [current, legacyBcrypt, legacyScrypt]) spy.reset()
  }
  return { current, legacyBcrypt, legacyScrypt, context, reset }
}

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

/** What better-auth logged at error level, e.g. the plugin's failed upgrades. */
const errorLogs: { message: string; args: unknown[] }[] = []

const options = (database: BetterAuthOptions['database']) =>
  ({
    baseURL: BASE_URL,
    secret: SECRET,
    database,
    telemetry: { enabled: false },
    logger: {
      level: 'error',
      log: (level, message, ...args) => {
        if (level === 'error') errorLogs.push({ message, args })
      },
    },
  }) satisfies BetterAuthOptions

/** The app after the move, as the README wires it: authlab's hasher and the rehash plugin. */
const authlabApp = (
  database: BetterAuthOptions['database'],
  context: ReturnType<typeof hashers>['context'],
) =>
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

const signIn = async (app: App, email: string, password = PASSWORD) =>
  (await post(app, '/sign-in/email', { email, password })).status

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
/** A hash the context wrote with current: marked with the form it was made from (NFC, or NFKC for better-auth's). */
const CURRENT = /^nfk?c:\$argon2id\$v=19\$m=1024,t=1,p=1\$/

/** Wrong passwords, among them every kind some hasher's policy refuses. */
const WRONG: Record<string, string> = {
  empty: '',
  '73 bytes': 'y'.repeat(73),
  'a NUL': 'correct horse\u0000battery staple',
  'a lone surrogate': 'correct horse \ud800 battery',
  'a near miss': 'correct horse battery stapler',
}

// Spellings of one password under NFKC, as [signed up with, typed another day]: a full-width phone
// keyboard, a decomposed é (e + U+0301) and the composed one. The last two are one password under NFC
// too; the first two are not.
const SPELLINGS = [
  ['ｐａｓｓｗｏｒｄ１２３４', 'password1234'],
  ['password1234', 'ｐａｓｓｗｏｒｄ１２３４'],
  ['cafe\u0301 au lait', 'caf\u00e9 au lait'],
  ['caf\u00e9 au lait', 'cafe\u0301 au lait'],
] as const

describe.each(CONFIGURATIONS)('the README’s configuration: $name', ({ missingUserFormat }) => {
  describe.each(ADAPTERS)('better-auth 1.7 with $name', (adapter) => {
    let database: BetterAuthOptions['database']
    let spies: ReturnType<typeof hashers>
    let app: ReturnType<typeof authlabApp>
    beforeEach(async () => {
      database = await adapter.database()
      spies = hashers(missingUserFormat)
      app = authlabApp(database, spies.context)
      errorLogs.length = 0
    })

    test('sign-up over HTTP stores the current argon2id hash; it signs in, twice, unchanged', async () => {
      const response = await post(app, '/sign-up/email', {
        email: 'new@example.com',
        password: PASSWORD,
        name: 'New',
      })
      expect(response.status).toBe(200)
      const { user } = (await response.json()) as { user: { id: string } }
      const stored = await storedHash(app, user.id)
      expect(stored).toMatch(CURRENT)
      expect([await signIn(app, 'new@example.com'), await signIn(app, 'new@example.com')]).toEqual([200, 200])
      expect(await storedHash(app, user.id)).toBe(stored)
    })

    test("a user with better-auth's default hash signs in, is moved to argon2id, and signs in again", async () => {
      const id = await signUp(defaultApp(database), 'ada@example.com')
      expect(await storedHash(app, id)).toMatch(BETTER_AUTH_DEFAULT)
      spies.reset()

      const result = await app.api.signInEmail({ body: { email: 'ada@example.com', password: PASSWORD } })
      expect(result.user.id).toBe(id)
      const upgraded = await storedHash(app, id)
      expect(upgraded).toMatch(CURRENT)
      // One verify of the legacy hash and one hash for its replacement: the plugin reused the sign-in's.
      expect({ current: { ...spies.current.calls }, scrypt: spies.legacyScrypt.calls.verify }).toEqual({
        current: { hash: 1, verify: 0 },
        scrypt: 1,
      })
      // No reset: the same password keeps working, now against the argon2id hash.
      expect(await signIn(app, 'ada@example.com')).toBe(200)
      expect(await storedHash(app, id)).toBe(upgraded)
    })

    test('a $2b$ bcrypt import signs in over HTTP, is moved to argon2id, and signs in again', async () => {
      const id = await signUp(app, 'grace@example.com')
      await setStoredHash(app, id, await bcrypt({ cost: 4 }).hash(PASSWORD))
      spies.reset()

      expect(await signIn(app, 'grace@example.com')).toBe(200)
      expect(spies.legacyBcrypt.calls.verify).toBe(1)
      const upgraded = await storedHash(app, id)
      expect(upgraded).toMatch(CURRENT)
      expect(await signIn(app, 'grace@example.com')).toBe(200)
      expect(await storedHash(app, id)).toBe(upgraded)
    })

    test('a bcrypt import of a password over 72 bytes signs in, and is upgraded from the whole password', async () => {
      const long = `${'x'.repeat(71)}é and nine more`
      const bytes = new TextEncoder().encode(long)
      const id = await signUp(app, 'long@example.com')
      // What a truncating exporter (OpenBSD's bcrypt, node.bcrypt.js, bcryptjs) stored: bytes 0–71.
      await setStoredHash(app, id, await bcrypt({ cost: 4 }).hash(bytes.subarray(0, 72)))

      expect(await signIn(app, 'long@example.com', long)).toBe(200)
      expect(await storedHash(app, id)).toMatch(CURRENT)
      expect(await signIn(app, 'long@example.com', long)).toBe(200)
      // The whole password is the password from then on; its first 72 bytes (ASCII here) are not.
      expect(await signIn(app, 'long@example.com', 'x'.repeat(71))).toBe(401)
    })

    describe.each(Object.entries(WRONG))('a wrong password (%s)', (_, wrong) => {
      test('answers 401 on every kind of account, over HTTP and auth.api, and writes nothing', async () => {
        await signUp(defaultApp(database), 'scrypt@example.com')
        const imported = await signUp(app, 'bcrypt@example.com')
        const importedHash = await bcrypt({ cost: 4 }).hash(PASSWORD)
        await setStoredHash(app, imported, importedHash)
        await signUp(app, 'argon2id@example.com')
        // An account whose stored password is '' (none set): better-auth's "Password not found" path.
        await setStoredHash(app, await signUp(app, 'none@example.com'), '')
        const emails = [
          'nobody@example.com',
          'none@example.com',
          'scrypt@example.com',
          'bcrypt@example.com',
          'argon2id@example.com',
        ]

        const statuses = []
        for (const email of emails) statuses.push(await signIn(app, email, wrong))
        expect(statuses).toEqual(emails.map(() => 401))
        for (const email of emails)
          await expect(app.api.signInEmail({ body: { email, password: wrong } })).rejects.toMatchObject({
            statusCode: 401,
            body: { code: 'INVALID_EMAIL_OR_PASSWORD' },
          })
        expect(await storedHash(app, imported)).toBe(importedHash)
        expect(errorLogs).toEqual([])
      })
    })

    describe.each(SPELLINGS)('signed up as %j, typed as %j', (signedUp, typed) => {
      test("better-auth's default user signs in with either spelling, before and after the upgrade", async () => {
        const id = await signUp(defaultApp(database), 'yuki@example.com', signedUp)
        expect(await signIn(app, 'yuki@example.com', typed)).toBe(200)
        expect(await storedHash(app, id)).toMatch(CURRENT)
        expect([
          await signIn(app, 'yuki@example.com', signedUp),
          await signIn(app, 'yuki@example.com', typed),
        ]).toEqual([200, 200])
      })

      test('a user who signed up through authlab signs in with either, if they are one password under NFC', async () => {
        await signUp(app, 'yuki@example.com', signedUp)
        const canonical = signedUp.normalize('NFC') === typed.normalize('NFC')
        expect([
          await signIn(app, 'yuki@example.com', typed),
          await signIn(app, 'yuki@example.com', signedUp),
        ]).toEqual([canonical ? 200 : 401, 200])
      })
    })

    test('a password changed during the sign-in is not overwritten by the upgrade', async () => {
      const id = await signUp(app, 'barbara@example.com')
      await setStoredHash(app, id, await bcrypt({ cost: 4 }).hash(PASSWORD))
      const changed = await argon2({ m: 1024, t: 1, p: 1 }).hash('a new password from another device')
      // The replacement hash is made inside the sign-in's verify; the password changes just before it.
      spies.current.onNextHash(() => setStoredHash(app, id, changed))

      expect(await signIn(app, 'barbara@example.com')).toBe(200)
      expect(await storedHash(app, id)).toBe(changed)
    })

    test('an upgrade whose hash fails still signs in, is logged, and is made at the next sign-in', async () => {
      const id = await signUp(defaultApp(database), 'edsger@example.com')
      const legacy = await storedHash(app, id)
      spies.current.failNextHash(new OverloadError('hasher pool full'))

      expect(await signIn(app, 'edsger@example.com')).toBe(200)
      expect(await storedHash(app, id)).toBe(legacy)
      expect(errorLogs).toEqual([
        {
          message: 'authlab-rehash: the stored password hash was not upgraded',
          args: [{ code: 'ERR_AUTHLAB_OVERLOAD', message: 'hasher pool full' }],
        },
      ])
      expect(await signIn(app, 'edsger@example.com')).toBe(200)
      expect(await storedHash(app, id)).toMatch(CURRENT)
    })

    test('a missing user costs one verify in missingUserFormat, and no hash', async () => {
      await signUp(app, 'someone@example.com')
      spies.reset()
      expect(await signIn(app, 'nobody@example.com')).toBe(401)
      const spent = {
        current: spies.current.calls,
        bcrypt: spies.legacyBcrypt.calls,
        scrypt: spies.legacyScrypt.calls,
      }
      const expected = {
        current: { hash: 0, verify: 0 },
        bcrypt: { hash: 0, verify: 0 },
        scrypt: { hash: 0, verify: 0 },
      }
      // better-auth's scrypt when named, else the first legacy hasher's format: bcrypt.
      if (missingUserFormat === BETTER_AUTH_SCRYPT) expected.scrypt.verify = 1
      else expected.bcrypt.verify = 1
      expect(spent).toEqual(expected)
    })
  })
})

test('the upgrade is a compare-and-swap: a change between its read and its write wins', async () => {
  const db = { user: [], session: [], account: [], verification: [] }
  const memory = memoryAdapter(db)
  let beforeWrite: (() => Promise<void>) | undefined
  // The memory adapter, with a hook that runs just before the plugin's write reaches it.
  const adapter: typeof memory = (adapterOptions) => {
    const inner = memory(adapterOptions)
    return {
      ...inner,
      async updateMany(args) {
        const run = beforeWrite
        beforeWrite = undefined
        await run?.()
        return inner.updateMany(args)
      },
    }
  }
  const { context } = hashers(BETTER_AUTH_SCRYPT)
  const app = authlabApp(adapter, context)
  const id = await signUp(defaultApp(adapter), 'margaret@example.com')
  const changed = await argon2({ m: 1024, t: 1, p: 1 }).hash('changed meanwhile')
  beforeWrite = () => setStoredHash(app, id, changed)

  expect(await signIn(app, 'margaret@example.com')).toBe(200)
  expect(await storedHash(app, id)).toBe(changed)

  // Without a concurrent change the same plugin does upgrade.
  const other = await signUp(defaultApp(adapter), 'katherine@example.com')
  expect(await signIn(app, 'katherine@example.com')).toBe(200)
  expect(await storedHash(app, other)).toMatch(CURRENT)
})

describe('authlabRehash refuses, when better-auth starts, a verifier that cannot read what it writes', () => {
  const { context } = hashers(BETTER_AUTH_SCRYPT)
  const database = () => memoryAdapter({ user: [], session: [], account: [], verification: [] })
  test.each([
    ["better-auth's default hasher", undefined],
    ['authlabPassword with another context', authlabPassword(hashers(BETTER_AUTH_SCRYPT).context)],
    ['a hasher of its own', { hash: async (p: string) => p, verify: async () => false }],
  ])('%s', async (_, password) => {
    const app = betterAuth({
      ...options(database()),
      emailAndPassword: { enabled: true, ...(password ? { password } : {}) },
      plugins: [authlabRehash(context)],
    })
    await expect(app.$context).rejects.toMatchObject({ code: 'ERR_AUTHLAB_INVALID_OPTION' })
  })
})

test('a new password current refuses answers 400 PASSWORD_REFUSED, not 500', async () => {
  const { context } = hashers(BETTER_AUTH_SCRYPT)
  const app = authlabApp(memoryAdapter({ user: [], session: [], account: [], verification: [] }), context)
  const response = await post(app, '/sign-up/email', {
    email: 'alan@example.com',
    password: 'a lone \ud800 surrogate',
    name: 'Alan',
  })
  expect(response.status).toBe(400)
  expect(await response.json()).toMatchObject({ code: 'PASSWORD_REFUSED' })
})
