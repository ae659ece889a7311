import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { identifyHash, type PasswordContext } from '../../src/index.js'
import { CURRENT, contextForEveryStack, firebaseStored, MADE, PUBLISHED, wrong } from './fixtures.js'

/**
 * A real express app moving in: its users table holds one imported hash per stack, and its login
 * route does what the README shows (verify; on a right password with a replacement, a
 * compare-and-swap of the stored value).
 */
const users = new Map<string, string>()

function loginApp(passwords: PasswordContext) {
  const app = express()
  app.use(express.json())
  app.post('/login', async (req, res) => {
    const { email, password } = req.body as { email: string; password: string }
    const stored = users.get(email)
    const { valid, rehashed } = await passwords.verify(stored, password)
    // Compare-and-swap: only the value that was verified is replaced.
    if (valid && rehashed && users.get(email) === stored) users.set(email, rehashed)
    res.status(valid ? 200 : 401).json({ ok: valid })
  })
  return app
}

const firebaseUser = PUBLISHED.firebase.projects[0]?.users[0] as {
  password: string
  salt: string
  passwordHash: string
}
const pick = (vectors: readonly { maker: string; password: string; encoded: string }[], maker: string) =>
  vectors.find((v) => v.maker.startsWith(maker)) as { password: string; encoded: string }

/** One account per stored format, each with the password its stack hashed. */
const ACCOUNTS: Record<string, { password: string; encoded: string }> = {
  'django-pbkdf2': pick(MADE.django, 'pbkdf2_sha256'),
  'django-bcrypt-sha256': pick(MADE.django, 'bcrypt_sha256'),
  'django-argon2': pick(MADE.django, 'argon2 argon2id'),
  'django-scrypt': pick(MADE.django, 'scrypt'),
  'php-bcrypt': pick(MADE.php, 'password_hash PASSWORD_BCRYPT'),
  'php-argon2i': pick(MADE.php, 'password_hash PASSWORD_ARGON2I m='),
  'php-argon2id': pick(MADE.php, 'password_hash PASSWORD_ARGON2ID'),
  wordpress: pick(MADE.php, 'WordPress'),
  'rails-auth0': pick(MADE.bcrypt, '$2b$'),
  aspnet: { password: PUBLISHED.aspnet.password, encoded: PUBLISHED.aspnet.vectors[0]?.encoded as string },
  spring: {
    password: PUBLISHED.spring.delegating.password,
    encoded: PUBLISHED.spring.delegating.vectors[2] as string,
  },
  firebase: { password: firebaseUser.password, encoded: firebaseStored(firebaseUser) },
  phpbb: pick(MADE.phpass, '$H$'),
  keycloak: pick(MADE.keycloak, 'pbkdf2-sha512'),
}

let base = ''
let close: () => void = () => {}
beforeAll(async () => {
  for (const [name, { encoded }] of Object.entries(ACCOUNTS)) users.set(`${name}@example.test`, encoded)
  const server = loginApp(contextForEveryStack()).listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  close = () => server.close()
})
afterAll(() => close())

const login = async (email: string, password: string) =>
  (
    await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    })
  ).status

test.each(Object.entries(ACCOUNTS))(
  '%s: the first right login upgrades the stored hash; wrong ones change nothing',
  async (name, account) => {
    const email = `${name}@example.test`
    const imported = users.get(email) as string
    expect(await login(email, wrong(account.password))).toBe(401)
    expect(users.get(email)).toBe(imported)
    expect(await login(email, account.password)).toBe(200)
    const upgraded = users.get(email) as string
    expect(upgraded).toMatch(CURRENT)
    expect(identifyHash(upgraded)).toBe('scrypt')
    expect(await login(email, account.password)).toBe(200)
    expect(users.get(email)).toBe(upgraded)
  },
)

test('a missing account answers as a wrong password does', async () => {
  expect(await login('nobody@example.test', 'correct horse battery staple')).toBe(401)
})
