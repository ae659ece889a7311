import { createHasher as argon2 } from '@authlab/hash-argon2'
import { createHasher as bcrypt } from '@authlab/hash-bcrypt'
import { createPasswordContext } from '@authlab/password-context'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startNestLoginApp, USERS_TABLE } from '../src/nest-login.js'
import type { RunningApp } from '../src/options.js'
import { openPostgresSchema, type PostgresSchema } from '../src/postgres.js'
import { Browser } from './browser.js'
import { POSTGRES, runScope, serviceSkipReason } from './services.js'

const PASSWORD = 'correct horse battery staple'
// Cheap parameters: the routing, the writes and the answers are under test here, not the cost.
const legacyBcrypt = bcrypt({ cost: 4 })
const passwords = createPasswordContext({ current: argon2({ m: 1024, t: 1, p: 1 }), legacy: [legacyBcrypt] })

const skip = await serviceSkipReason(POSTGRES)
let db: PostgresSchema
let app: RunningApp

async function storedHash(email: string): Promise<string | undefined> {
  const found = await db.pool.query<{ password_hash: string }>(
    `SELECT password_hash FROM ${USERS_TABLE} WHERE email = $1`,
    [email],
  )
  return found.rows[0]?.password_hash
}

const post = (browser: Browser, path: string, json: object) => browser.request(path, { method: 'POST', json })

describe.skipIf(skip !== undefined)('NestJS login with @authlab/password-context, on PostgreSQL', () => {
  beforeAll(async () => {
    db = await openPostgresSchema(runScope('authlab_fw_nest'))
    app = await startNestLoginApp({
      passwords,
      pool: db.pool,
      secret: 'a session secret of more than 32 characters',
    })
  })
  afterAll(async () => {
    await app?.close()
    await db?.drop()
  })

  test('sign-up, a refused and an accepted login, the session it starts, logout', async () => {
    const ada = new Browser(app.url)
    expect((await post(ada, '/signup', { email: 'ada@example.org', password: PASSWORD })).status).toBe(201)
    expect((await post(ada, '/signup', { email: 'Ada@example.org', password: 'x' })).status, 'taken').toBe(
      409,
    )
    expect(await storedHash('ada@example.org')).toMatch(/^nfc:\$argon2id\$v=19\$m=1024,t=1,p=1\$/)

    const refused = await post(ada, '/login', { email: 'ada@example.org', password: 'Tr0ub4dor&3' })
    expect(refused.status).toBe(401)
    expect(refused.headers.getSetCookie()).toEqual([])
    expect((await post(ada, '/login', { email: 'nobody@example.org', password: PASSWORD })).status).toBe(401)
    expect((await post(ada, '/login', { email: 'ada@example.org', password: PASSWORD })).status).toBe(204)
    expect(await ada.json('/me')).toEqual({ status: 200, body: { user: 'ada@example.org' } })
    expect((await post(ada, '/logout', {})).status).toBe(204)
    expect((await ada.json('/me')).status).toBe(401)
    expect((await post(ada, '/login', { email: 'ada', password: 7 })).status, 'a malformed body').toBe(400)
  })

  test('a legacy bcrypt user signs in and is moved to argon2id, with the session renewed', async () => {
    const legacy = await legacyBcrypt.hash(PASSWORD)
    await db.pool.query(`INSERT INTO ${USERS_TABLE} (email, password_hash) VALUES ($1, $2)`, [
      'grace@example.org',
      legacy,
    ])
    const grace = new Browser(app.url)
    expect((await grace.json('/')).status).toBe(404)
    expect((await post(grace, '/login', { email: 'grace@example.org', password: 'wrong' })).status).toBe(401)
    expect(await storedHash('grace@example.org'), 'a wrong password changes nothing').toBe(legacy)
    expect((await post(grace, '/login', { email: 'grace@example.org', password: PASSWORD })).status).toBe(204)
    expect(await storedHash('grace@example.org')).toMatch(/^nfc:\$argon2id\$/)
    expect(await grace.json('/me')).toEqual({ status: 200, body: { user: 'grace@example.org' } })
    // Logging in again, now on argon2id, renews the session ID: the cookie held before no longer works.
    const before = grace.clone()
    expect((await post(grace, '/login', { email: 'grace@example.org', password: PASSWORD })).status).toBe(204)
    expect(grace.cookieHeader).not.toBe(before.cookieHeader)
    expect((await grace.json('/me')).status).toBe(200)
    expect((await before.json('/me')).status, 'the pre-login session is destroyed').toBe(401)
  })
})
if (skip !== undefined) test.skip(`NestJS login: ${skip}`, () => {})
