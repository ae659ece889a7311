import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  AUTHJS_BASE_PATH,
  AUTHJS_COOKIE,
  AUTHJS_SESSION_KEY_PREFIX,
  type AuthjsApp,
  EMAIL_PROVIDER_ID,
  startAuthjsApp,
} from '../../src/authjs.js'
import type { KeyValueStore } from '../../src/kv.js'
import { Browser } from '../browser.js'
import { discoverGenerators, GeneratorSwitch, type GeneratorUnderTest } from '../generators.js'
import { openRedisScope, REDIS, serviceSkipReason } from '../services.js'

const generators = await discoverGenerators()
const skip = await serviceSkipReason(REDIS)
let app: AuthjsApp
let store: KeyValueStore
let generatorSwitch: GeneratorSwitch

/** A magic-link sign-in as a browser makes it: CSRF token, the form post, then the link from the mailbox. */
async function signIn(browser: Browser, email: string): Promise<string> {
  const csrf = await browser.json<{ csrfToken: string }>(`${AUTHJS_BASE_PATH}/csrf`)
  const sent = await browser.request(`${AUTHJS_BASE_PATH}/signin/${EMAIL_PROVIDER_ID}`, {
    method: 'POST',
    form: { email, csrfToken: csrf.body.csrfToken },
  })
  expect(sent.status).toBe(302)
  const link = app.outbox.take(email)
  expect(link, 'a sign-in link was sent').toBeDefined()
  expect((await browser.request(link ?? '')).status).toBe(302)
  const token = browser.cookies.get(AUTHJS_COOKIE)
  expect(token, 'signing in sets the session cookie').toBeDefined()
  return token ?? ''
}

async function signOut(browser: Browser): Promise<void> {
  const csrf = await browser.json<{ csrfToken: string }>(`${AUTHJS_BASE_PATH}/csrf`)
  const out = await browser.request(`${AUTHJS_BASE_PATH}/signout`, {
    method: 'POST',
    form: { csrfToken: csrf.body.csrfToken },
  })
  expect(out.status).toBe(302)
}

const sessionKey = (token: string) => `${AUTHJS_SESSION_KEY_PREFIX}${token}`

function conformsTo(generator: GeneratorUnderTest, id: string): boolean {
  const { length, alphabet } = generator.generate.info
  return id.length === length && [...id].every((char) => alphabet.includes(char))
}

describe.skipIf(skip !== undefined)('authjs, database sessions on Redis (@auth/unstorage-adapter)', () => {
  beforeAll(async () => {
    store = await openRedisScope('authjs')
    generatorSwitch = new GeneratorSwitch(generators[0] as GeneratorUnderTest)
    app = await startAuthjsApp({
      generateId: generatorSwitch.generateId,
      secret: 'an Auth.js secret of more than thirty-two characters',
      store,
    })
  })
  afterAll(async () => {
    await app?.close()
    await store?.close()
  })

  test.each(generators.map((g) => [g.name, g] as const))(
    "%s as Auth.js's session token",
    async (name, generator) => {
      generatorSwitch.use(generator)
      const email = `${name.replace(/\W/g, '-')}@example.org`
      const browser = new Browser(app.url)
      const token = await signIn(browser, email)
      expect(generatorSwitch.issued(name, token), 'the token comes from the generator').toBe(true)
      expect(conformsTo(generator, token), "the cookie holds the generator's ID as it is").toBe(true)
      expect(await store.keys(), "the adapter stores the session under the generator's ID").toContain(
        sessionKey(token),
      )
      for (let visit = 0; visit < 2; visit++) {
        const session = await browser.json<{ user?: { email?: string } }>(`${AUTHJS_BASE_PATH}/session`)
        expect(session.body.user?.email, 'the cookie sent back finds the same session').toBe(email)
      }
      const forged = browser.clone()
      forged.cookies.set(AUTHJS_COOKIE, `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)
      expect((await forged.json('/me')).status, 'a changed token opens nothing').toBe(401)

      // Signing in again issues a new token. Auth.js keeps the previous session of the same user (it
      // deletes one only when another user signs in over it: @auth/core lib/actions/callback/handle-login.ts).
      const earlier = browser.clone()
      const renewed = await signIn(browser, email)
      expect(renewed).not.toBe(token)
      expect(generatorSwitch.issued(name, renewed)).toBe(true)
      expect((await earlier.json('/me')).status, 'the earlier session stays valid').toBe(200)

      await signOut(browser)
      expect(await store.keys(), 'sign-out deletes the session').not.toContain(sessionKey(renewed))
      expect((await browser.json('/me')).status).toBe(401)
      await signOut(earlier)
      expect(await store.keys()).not.toContain(sessionKey(token))
    },
  )
})
if (skip !== undefined) test.skip(`authjs: ${skip}`, () => {})
