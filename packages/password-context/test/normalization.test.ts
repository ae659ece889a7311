import { createHasher as argon2 } from '@authlab/hash-argon2'
import { createHasher as bcrypt } from '@authlab/hash-bcrypt'
import { hashPassword } from '@better-auth/utils/password'
import { describe, expect, test } from 'vitest'
import { createPasswordContext } from '../src/index.js'

const current = argon2({ m: 1024, t: 1, p: 1 })
const context = createPasswordContext({ current, legacy: [bcrypt({ cost: 4 })] })

// Spellings of one password under NFKC: a full-width phone keyboard, a decomposed é (e + U+0301), a
// ligature. Each pair is [what the user signed up with, what they type another day].
const PAIRS = [
  ['ｐａｓｓｗｏｒｄ１２３４', 'password1234'],
  ['password1234', 'ｐａｓｓｗｏｒｄ１２３４'],
  ['cafe\u0301 au lait', 'caf\u00e9 au lait'],
  ['caf\u00e9 au lait', 'cafe\u0301 au lait'],
  ['\ufb01ne words', 'fine words'],
] as const

describe.each(PAIRS)('signed up as %j, typed as %j', (signedUp, typed) => {
  test('a hash the context wrote verifies with either spelling', async () => {
    const stored = await context.hash(signedUp)
    expect(await context.verify(stored, typed)).toEqual({ valid: true })
    expect(await context.verify(stored, signedUp)).toEqual({ valid: true })
  })

  test("better-auth's own hash verifies with either, before and after the upgrade", async () => {
    const stored = await hashPassword(signedUp)
    const { valid, rehashed } = await context.verify(stored, typed)
    expect(valid).toBe(true)
    for (const spelling of [signedUp, typed])
      expect(await context.verify(rehashed as string, spelling)).toEqual({ valid: true })
  })

  test('an imported bcrypt hash verifies as typed where it was made, and with either after the upgrade', async () => {
    // Exporters (Auth0, passlib, Django) hashed the password as typed, without normalising.
    const stored = await bcrypt({ cost: 4 }).hash(signedUp)
    const nfkcChanges = signedUp.normalize('NFKC') !== signedUp
    if (nfkcChanges) expect(await context.verify(stored, typed)).toEqual({ valid: false })
    const { valid, rehashed } = await context.verify(stored, signedUp)
    expect(valid).toBe(true)
    for (const spelling of [signedUp, typed])
      expect(await context.verify(rehashed as string, spelling)).toEqual({ valid: true })
  })
})
