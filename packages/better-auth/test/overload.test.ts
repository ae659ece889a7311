import { randomBytes, scryptSync } from 'node:crypto'
import { encodeKdfHash, SCRYPT } from '@authlab/core'
import { createHasher as bcrypt } from '@authlab/hash-bcrypt'
import { createHasher as scryptJs } from '@authlab/hash-scrypt-js'
import { createPasswordContext, type PasswordContextOptions } from '@authlab/password-context'
import { betterAuth } from 'better-auth'
import { memoryAdapter } from 'better-auth/adapters/memory'
import { beforeAll, describe, expect, test } from 'vitest'
import { authlabPassword, authlabRehash } from '../src/index.js'

const BASE_URL = 'http://localhost:3000'
const PASSWORD = 'correct horse battery staple'

/**
 * A bounded `current`: pure-JS scrypt running one derivation at a time, as small a bound as there is.
 * `missingUserFormat` as the README's configurations name it: a format without a bound (better-auth's
 * scrypt and bcrypt read alike here; bcrypt is the cheaper), or current's own.
 */
function app(missingUserFormat: PasswordContextOptions['missingUserFormat']) {
  const context = createPasswordContext({
    current: scryptJs({ ln: 10, r: 8, p: 1, maxConcurrent: 1 }),
    legacy: [bcrypt({ cost: 4 })],
    missingUserFormat,
  })
  const auth = betterAuth({
    baseURL: BASE_URL,
    secret: 'authlab-better-auth-test-secret-of-32+chars',
    database: memoryAdapter({ user: [], session: [], account: [], verification: [] }),
    telemetry: { enabled: false },
    logger: { disabled: true },
    emailAndPassword: { enabled: true, password: authlabPassword(context) },
    plugins: [authlabRehash(context)],
  })
  return { context, auth }
}

async function post(auth: ReturnType<typeof app>['auth'], path: string, body: Record<string, string>) {
  const response = await auth.handler(
    new Request(`${BASE_URL}/api/auth${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: BASE_URL },
      body: JSON.stringify(body),
    }),
  )
  const headers = [...response.headers].filter(([name]) => name !== 'date' && name !== 'set-cookie')
  return { status: response.status, headers, body: await response.text() }
}

const BUSY = {
  status: 503,
  headers: expect.arrayContaining([['retry-after', '1']]),
  body: expect.stringContaining('"code":"PASSWORD_CHECK_BUSY"'),
}

test('a sign-up just after better-auth starts is not refused for the dummy hash the context is making', async () => {
  // current's own format: the dummy is made by `current` and takes its one slot at start.
  const { auth } = app('scrypt')
  const answer = await post(auth, '/sign-up/email', {
    email: 'first@example.com',
    password: PASSWORD,
    name: 'F',
  })
  expect(answer.status).toBe(200)
})

/**
 * A stored hash in current's format whose verify holds its one slot for over a hundred main-thread
 * chunks of scrypt-js (its parameters, ln=13, are in the hash), made natively (RFC 7914).
 */
const slow = (() => {
  const salt = randomBytes(16)
  const key = scryptSync('a slow one', salt, 32, { N: 2 ** 13, r: 8, p: 1 })
  return encodeKdfHash(SCRYPT, { ln: 13, r: 8, p: 1 }, salt, key)
})()

describe.each(['bcrypt', 'scrypt'] as const)('with missingUserFormat %s', (missingUserFormat) => {
  let setup: ReturnType<typeof app>
  beforeAll(async () => {
    setup = app(missingUserFormat)
    await setup.auth.api.signUpEmail({ body: { email: 'ada@example.com', password: PASSWORD, name: 'Ada' } })
  })

  const requests = {
    'a missing account': ['/sign-in/email', { email: 'nobody@example.com', password: PASSWORD }],
    'an existing account, wrong password': [
      '/sign-in/email',
      { email: 'ada@example.com', password: 'wrong' },
    ],
    'an existing account, right password': [
      '/sign-in/email',
      { email: 'ada@example.com', password: PASSWORD },
    ],
    'a sign-up': ['/sign-up/email', { email: 'grace@example.com', password: PASSWORD, name: 'Grace' }],
  } as const
  const send = () => Promise.all(Object.values(requests).map(([path, body]) => post(setup.auth, path, body)))

  test('while current is full, every request answers the same 503 with Retry-After; after, as before', async () => {
    const holding = setup.context.verify(slow, 'a slow one')
    const whileFull = await send()
    await holding
    expect(whileFull).toEqual(Object.values(requests).map(() => BUSY))
    // Missing and existing alike: status, every header but the clock, and body.
    expect(new Set(whileFull.map((answer) => JSON.stringify(answer))).size).toBe(1)

    // auth.api throws better-auth's APIError, with the same status, body and header.
    const holdingAgain = setup.context.verify(slow, 'a slow one')
    const thrown = await Promise.all(
      ['nobody@example.com', 'ada@example.com'].map((email) =>
        setup.auth.api.signInEmail({ body: { email, password: PASSWORD } }).catch((error: unknown) => error),
      ),
    )
    await holdingAgain
    for (const error of thrown)
      expect(error).toMatchObject({
        statusCode: 503,
        headers: { 'Retry-After': '1' },
        body: { code: 'PASSWORD_CHECK_BUSY' },
      })

    const after = []
    for (const [path, body] of Object.values(requests))
      after.push((await post(setup.auth, path, body)).status)
    expect(after).toEqual([401, 401, 200, 200])
  })

  test('a burst of concurrent sign-ins: no 500, no right password refused as wrong, one 503 for all', async () => {
    const signIns = Object.values(requests).slice(0, 3)
    const usual = [401, 401, 200]
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => {
        const [path, body] = signIns[i % 3] as (typeof signIns)[number]
        return post(setup.auth, path, body)
      }),
    )
    answers.forEach((answer, i) => {
      if (answer.status === 503) expect(answer).toEqual(BUSY)
      else expect(answer.status).toBe(usual[i % 3])
    })
    const busy = answers.filter((answer) => answer.status === 503).map((answer) => JSON.stringify(answer))
    expect(new Set(busy).size).toBeLessThanOrEqual(1)
  })
})
