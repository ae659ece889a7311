import { createHasher as argon2 } from '@authlab/hash-argon2'
import { createHasher as bcrypt } from '@authlab/hash-bcrypt'
import { hashPassword } from '@better-auth/utils/password'
import { describe, expect, test } from 'vitest'
import { createPasswordContext } from '../src/index.js'
import { spy } from './spy.js'

const PASSWORD = 'correct horse battery staple'
const current = argon2({ m: 1024, t: 1, p: 1 })
const legacyBcrypt = spy(bcrypt({ cost: 4 }))
const context = createPasswordContext({ current, legacy: [legacyBcrypt.hasher] })

/** Wrong passwords, among them every kind some hasher's policy refuses. */
const WRONG: Record<string, string> = {
  empty: '',
  '73 bytes': 'y'.repeat(73),
  '5,000 bytes (over every policy)': 'y'.repeat(5000),
  'a NUL': 'correct horse\u0000battery staple',
  'a lone surrogate': 'correct horse \ud800 battery',
  'a near miss': 'correct horse battery stapler',
}

describe.each([
  ['missing', async () => null],
  ["better-auth's scrypt", () => hashPassword(PASSWORD)],
  ['a bcrypt import', () => bcrypt({ cost: 4 }).hash(PASSWORD)],
  ['argon2id (current)', () => current.hash(PASSWORD)],
])('a stored account: %s', (_, stored) => {
  test.each(Object.entries(WRONG))('a wrong password (%s) is not valid, never an error', async (_, wrong) => {
    const encoded = await stored()
    expect(await context.verify(encoded, wrong)).toEqual({ valid: false })
  })
})

test('a password the stored format refuses costs the missing-user verify, not an instant answer', async () => {
  const stored = await current.hash(PASSWORD)
  legacyBcrypt.reset()
  // argon2id refuses the empty password and the lone surrogate before any work; the missing-user
  // dummy (the first legacy hasher's format, bcrypt) is verified instead.
  expect(await context.verify(stored, '')).toEqual({ valid: false })
  expect(await context.verify(stored, WRONG['a lone surrogate'] as string)).toEqual({ valid: false })
  expect(legacyBcrypt.calls.verify).toHaveLength(2)
})

describe('a stored bcrypt hash is checked on the first 72 bytes, as the implementations that made it did', () => {
  // 81 bytes, the 72-byte boundary inside the two-byte "é": bcrypt exporters hashed bytes 0–71.
  const long = `${'x'.repeat(71)}é and more`
  const bytes = new TextEncoder().encode(long)
  // What a truncating implementation (OpenBSD's, node.bcrypt.js, bcryptjs) stored for `long`.
  const imported = () => bcrypt({ cost: 4 }).hash(bytes.subarray(0, 72))

  test('the whole password signs in and is upgraded from the whole password', async () => {
    const result = await context.verify(await imported(), long)
    expect(result.valid).toBe(true)
    const rehashed = result.rehashed as string
    expect(rehashed).toMatch(/^nfc:\$argon2id\$/)
    expect(await context.verify(rehashed, long)).toEqual({ valid: true })
    // From then on the whole password is the password: its first 72 bytes no longer are.
    expect(await context.verify(rehashed, bytes.subarray(0, 72))).toEqual({ valid: false })
  })

  test('a password differing only after byte 72 verifies, as it did where the hash was made', async () => {
    expect((await context.verify(await imported(), `${long} plus`)).valid).toBe(true)
    expect((await context.verify(await imported(), `${'x'.repeat(70)}é`)).valid).toBe(false)
  })

  test('with bcrypt as current, a new hash still refuses over 72 bytes, and an import verifies', async () => {
    const toBcrypt = createPasswordContext({ current: bcrypt({ cost: 4 }) })
    await expect(toBcrypt.hash(long)).rejects.toMatchObject({ code: 'ERR_AUTHLAB_PASSWORD_POLICY' })
    expect(await toBcrypt.verify(await imported(), long)).toEqual({ valid: true })
  })
})
