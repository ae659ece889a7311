import { createHasher as argon2 } from '@authlab/hash-argon2'
import { createHasher as bcrypt } from '@authlab/hash-bcrypt'
import { createPasswordContext } from '@authlab/password-context'
import { betterAuth } from 'better-auth'
import { memoryAdapter } from 'better-auth/adapters/memory'
import { phoneNumber, username } from 'better-auth/plugins'
import { beforeAll, describe, expect, test } from 'vitest'
import { authlabPassword, authlabRehash } from '../src/index.js'

const BASE_URL = 'http://localhost:3000'
const PASSWORD = 'correct horse battery staple'

/**
 * Passwords within better-auth's 128-character limit that some form of `current` refuses: a lone
 * UTF-16 surrogate (no UTF-8 encoding), and 125 × U+FDFA, whose NFKC form is 18 characters each
 * (UAX #15's largest expansion) and passes argon2id's 4,096-byte limit. An empty one too: better-auth's
 * email route lets it through to the hasher.
 */
const REFUSED: Record<string, string> = {
  'a lone surrogate': 'correct horse \ud800 battery',
  '125 × U+FDFA': '\ufdfa'.repeat(125),
  empty: '',
}

/** better-auth's sign-in routes, each with how to name an account on it. */
const ROUTES = [
  { path: '/sign-in/email', api: 'signInEmail', id: (user: Account) => ({ email: user.email }) },
  { path: '/sign-in/username', api: 'signInUsername', id: (user: Account) => ({ username: user.username }) },
  {
    path: '/sign-in/phone-number',
    api: 'signInPhoneNumber',
    id: (user: Account) => ({ phoneNumber: user.phone }),
  },
] as const

interface Account {
  readonly email: string
  readonly username: string
  readonly phone: string
}

const MISSING: Account = { email: 'nobody@example.com', username: 'nobody', phone: '+15550000000' }

const context = createPasswordContext({
  current: argon2({ m: 1024, t: 1, p: 1 }),
  legacy: [bcrypt({ cost: 4 })],
})

function app() {
  return betterAuth({
    baseURL: BASE_URL,
    secret: 'authlab-better-auth-test-secret-of-32+chars',
    database: memoryAdapter({ user: [], session: [], account: [], verification: [] }),
    telemetry: { enabled: false },
    logger: { disabled: true },
    emailAndPassword: { enabled: true, password: authlabPassword(context) },
    plugins: [username(), phoneNumber({ sendOTP: async () => undefined }), authlabRehash(context)],
  })
}

type App = ReturnType<typeof app>

async function addAccount(auth: App, account: Account, stored?: string): Promise<string> {
  const { user } = await auth.api.signUpEmail({
    body: { email: account.email, password: PASSWORD, name: account.username, username: account.username },
  })
  const ctx = await auth.$context
  // The phone-number plugin lets a number be set only through its OTP flow; the test writes it directly.
  await ctx.adapter.update({
    model: 'user',
    where: [{ field: 'id', value: user.id }],
    update: { phoneNumber: account.phone, phoneNumberVerified: true },
  })
  if (stored !== undefined) await ctx.internalAdapter.updatePassword(user.id, stored)
  return user.id
}

async function storedHash(auth: App, userId: string) {
  return (await (await auth.$context).internalAdapter.findCredentialAccount(userId))?.password
}

/** What a client sees of an answer: status, the headers that are not the clock, and the body. */
async function seen(response: Response) {
  const headers = [...response.headers].filter(([name]) => name !== 'date')
  return { status: response.status, headers, body: await response.text() }
}

async function overHttp(auth: Pick<App, 'handler'>, path: string, body: Record<string, string>) {
  const request = new Request(`${BASE_URL}/api/auth${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: BASE_URL },
    body: JSON.stringify(body),
  })
  return seen(await auth.handler(request))
}

async function overApi(auth: App, api: (typeof ROUTES)[number]['api'], body: Record<string, string>) {
  const call = auth.api[api] as (input: { body: unknown }) => Promise<unknown>
  const error = (await call({ body }).then(
    () => 'signed in',
    (e: unknown) => e,
  )) as { statusCode?: number; body?: unknown; headers?: unknown }
  return { statusCode: error.statusCode, body: error.body, headers: error.headers }
}

describe.each(ROUTES)('$path answers a missing and an existing account alike', (route) => {
  let auth: App
  let importedId: string
  const existing: Account = { email: 'ada@example.com', username: 'ada', phone: '+15551234567' }
  const imported: Account = { email: 'grace@example.com', username: 'grace', phone: '+15557654321' }
  beforeAll(async () => {
    auth = app()
    await addAccount(auth, existing)
    importedId = await addAccount(auth, imported, await bcrypt({ cost: 4 }).hash(PASSWORD))
  })

  test.each(Object.entries(REFUSED))(
    'for a refused password (%s), over HTTP and auth.api',
    async (_, refused) => {
      const answers = []
      for (const account of [MISSING, existing, imported]) {
        const body = { ...route.id(account), password: refused }
        answers.push({
          http: await overHttp(auth, route.path, body),
          api: await overApi(auth, route.api, body),
        })
      }
      expect(answers[0]?.http.status).toBe(401)
      expect(answers[1]).toEqual(answers[0])
      expect(answers[2]).toEqual(answers[0])
    },
  )

  test('the right password signs in, and a bcrypt import is upgraded to current on this route too', async () => {
    const answer = await overHttp(auth, route.path, { ...route.id(existing), password: PASSWORD })
    expect(answer.status).toBe(200)
    const before = await storedHash(auth, importedId)
    expect(context.needsUpgrade(before as string)).toBe(true)
    expect((await overHttp(auth, route.path, { ...route.id(imported), password: PASSWORD })).status).toBe(200)
    const after = await storedHash(auth, importedId)
    expect(context.identify(after as string)).toBe('argon2id')
    expect(context.needsUpgrade(after as string)).toBe(false)
  })
})

test('sign-up, which hashes for an email it already has too, refuses a refused password for both alike', async () => {
  // With requireEmailVerification, better-auth answers a sign-up for a taken email as for a new one and
  // hashes the password in both (api/routes/sign-up.ts): the refusal must be the same in both, which is
  // why `password.hash` keeps refusing outside /sign-in/.
  const auth = betterAuth({
    baseURL: BASE_URL,
    secret: 'authlab-better-auth-test-secret-of-32+chars',
    database: memoryAdapter({ user: [], session: [], account: [], verification: [] }),
    telemetry: { enabled: false },
    logger: { disabled: true },
    emailAndPassword: { enabled: true, requireEmailVerification: true, password: authlabPassword(context) },
    emailVerification: { sendVerificationEmail: async () => undefined },
    plugins: [authlabRehash(context)],
  })
  await auth.api.signUpEmail({ body: { email: 'ada@example.com', password: PASSWORD, name: 'Ada' } })
  const signUp = (email: string, password: string) =>
    overHttp(auth, '/sign-up/email', { email, password, name: 'X' })
  const refused = [await signUp('ada@example.com', REFUSED['a lone surrogate'] as string)]
  refused.push(await signUp('new@example.com', REFUSED['a lone surrogate'] as string))
  expect(refused[0]).toMatchObject({ status: 400, body: expect.stringContaining('PASSWORD_REFUSED') })
  expect(refused[1]).toEqual(refused[0])
  const accepted = [
    (await signUp('ada@example.com', PASSWORD)).status,
    (await signUp('new@example.com', PASSWORD)).status,
  ]
  expect(accepted).toEqual([200, 200])
})
