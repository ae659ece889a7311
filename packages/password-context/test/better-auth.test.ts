import { createHasher as argon2 } from '@authlab/hash-argon2'
import { createHasher as bcrypt } from '@authlab/hash-bcrypt'
import { hashPassword, verifyPassword } from '@better-auth/utils/password'
import { expect, test } from 'vitest'
import { BETTER_AUTH_SCRYPT, betterAuthScrypt, createPasswordContext } from '../src/index.js'

const current = argon2({ m: 1024, t: 1, p: 1 })
const context = createPasswordContext({ current, legacy: [bcrypt()] })

// "ﬁ" (U+FB01) and "Å" (U+212B, the angstrom sign) change under NFKC: better-auth normalises first.
const PASSWORD = 'ﬁne Å password'

test("better-auth's own hashPassword output verifies, is identified, and is upgraded to current", async () => {
  const stored = await hashPassword(PASSWORD)
  expect(stored).toHaveLength(161)
  expect(context.identify(stored)).toBe(BETTER_AUTH_SCRYPT)
  expect(context.needsUpgrade(stored)).toBe(true)
  const result = await context.verify(stored, PASSWORD)
  expect(result.valid).toBe(true)
  expect(result.rehashed).toMatch(/^nfkc:\$argon2id\$v=19\$m=1024,t=1,p=1\$/)
  expect(await context.verify(result.rehashed as string, PASSWORD)).toEqual({ valid: true })
  // NFKC, as better-auth: the compatibility forms and their normalised spelling are one password.
  expect((await context.verify(stored, 'fine Å password')).valid).toBe(true)
  expect(await context.verify(stored, 'ﬁne Å passwort')).toEqual({ valid: false })
})

test('the reader writes what better-auth verifies, and better-auth has the salt as the hex string', async () => {
  const ours = await betterAuthScrypt.hash(PASSWORD)
  expect(await verifyPassword(ours, PASSWORD)).toBe(true)
  expect(await verifyPassword(ours, 'another password')).toBe(false)
  // The 16 bytes the salt spells would derive another key: the hex text itself is the salt.
  const [salt = '', key = ''] = ours.split(':')
  expect(salt).toMatch(/^[0-9a-f]{32}$/)
  expect(key).toMatch(/^[0-9a-f]{128}$/)
})

test('every context reads it without configuration, and look-alikes of it are not routed', async () => {
  const bare = createPasswordContext({ current })
  const stored = await hashPassword('hunter2hunter2')
  expect((await bare.verify(stored, 'hunter2hunter2')).valid).toBe(true)
  for (const almost of [stored.toUpperCase(), stored.slice(0, -1), stored.replace(':', '$')]) {
    const error = await bare.verify(almost, 'hunter2hunter2').catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'ERR_AUTHLAB_INVALID_HASH' })
  }
})
