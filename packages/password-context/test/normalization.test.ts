import { createHasher as argon2 } from '@authlab/hash-argon2'
import { createHasher as bcrypt } from '@authlab/hash-bcrypt'
import { hashPassword } from '@better-auth/utils/password'
import { describe, expect, test } from 'vitest'
import { createPasswordContext } from '../src/index.js'

// The same parameters as `current`: a hash made by @authlab/hash-argon2 alone is in current's own format.
const argon2id = () => argon2({ m: 1024, t: 1, p: 1 })
const context = createPasswordContext({ current: argon2id(), legacy: [bcrypt({ cost: 4 })] })

/**
 * Passwords users type that NFKC changes and NFC keeps, each with its NFKC spelling: `²` on an AZERTY
 * keyboard, `µ` (AltGr+M on a German one), full-width digits from a Japanese IME, a ligature pasted from
 * a document.
 */
const COMPATIBILITY = [
  ['mot de passe ²', 'mot de passe 2'],
  ['Preis 5 µg Salz', 'Preis 5 μg Salz'],
  ['password１２３４', 'password1234'],
  ['\ufb01ne words here', 'fine words here'],
] as const

/** One password in two canonically equivalent spellings: a composed é (U+00E9) and e + U+0301. */
const COMPOSED = 'caf\u00e9 au lait'
const DECOMPOSED = 'cafe\u0301 au lait'

/** Every password the users below type, with the spellings each kind of hash should take for it. */
const TYPED = [...COMPATIBILITY.map(([typed]) => typed), COMPOSED, DECOMPOSED]

/** What `stored` answers for each spelling, and the hash that replaces it on its owner's login. */
async function answers(stored: string, spellings: readonly string[]) {
  const valid = []
  for (const spelling of spellings) valid.push((await context.verify(stored, spelling)).valid)
  return valid
}

describe.each(TYPED)('a user whose password is %j', (password) => {
  const nfkc = password.normalize('NFKC')

  test('made by @authlab/hash-argon2 from the typed password: never refused; the upgrade keeps it', async () => {
    const stored = await argon2id().hash(password)
    const result = await context.verify(stored, password)
    expect(result).toEqual({ valid: true, rehashed: expect.stringMatching(/^nfc:\$argon2id\$/) })
    // As its maker did: the typed password only. An NFKC spelling is another password here.
    if (nfkc !== password) expect((await context.verify(stored, nfkc)).valid).toBe(false)
    // Upgraded to the NFC form: the same password, and from then on its canonical spellings.
    const upgraded = result.rehashed as string
    expect(await context.verify(upgraded, password)).toEqual({ valid: true })
    expect(await answers(upgraded, [password.normalize('NFC'), password.normalize('NFD')])).toEqual([
      true,
      true,
    ])
    if (nfkc.normalize('NFC') !== password.normalize('NFC'))
      expect((await context.verify(upgraded, nfkc)).valid).toBe(false)
  })

  test('made by the context: NFC, so its canonical spellings sign in and its NFKC spelling does not', async () => {
    const stored = await context.hash(password)
    expect(stored).toMatch(/^nfc:\$argon2id\$/)
    expect(context.needsUpgrade(stored)).toBe(false)
    expect(await answers(stored, [password, password.normalize('NFC'), password.normalize('NFD')])).toEqual([
      true,
      true,
      true,
    ])
    if (nfkc.normalize('NFC') !== password.normalize('NFC'))
      expect((await context.verify(stored, nfkc)).valid).toBe(false)
  })

  test('a bcrypt import: as typed, then NFC after the upgrade', async () => {
    const stored = await bcrypt({ cost: 4 }).hash(password)
    const result = await context.verify(stored, password)
    expect(result.valid).toBe(true)
    if (nfkc !== password) expect((await context.verify(stored, nfkc)).valid).toBe(false)
    expect(
      await answers(result.rehashed as string, [password.normalize('NFC'), password.normalize('NFD')]),
    ).toEqual([true, true])
  })
})

// better-auth's scrypt costs 32 MiB and tens of milliseconds a call: its hashes are made and checked
// for every password at once, on libuv's threadpool, rather than one password per test.
test("better-auth's hashes: NFKC, before and after the upgrade, for every password above", async () => {
  const outcomes = await Promise.all(
    TYPED.map(async (password) => {
      const nfkc = password.normalize('NFKC')
      // Signed up with one spelling, signing in with another: its NFKC one, or its decomposed one.
      const other = nfkc !== password ? nfkc : password.normalize('NFD')
      const result = await context.verify(await hashPassword(password), other)
      const upgraded = result.rehashed as string
      // Every spelling that signed in with better-auth's hash signs in with its replacement.
      const after = await answers(upgraded, [password, nfkc, password.normalize('NFD')])
      return {
        password,
        before: result.valid,
        upgraded,
        upgradedAgain: context.needsUpgrade(upgraded),
        after,
      }
    }),
  )
  for (const outcome of outcomes)
    expect(outcome).toEqual({
      password: outcome.password,
      before: true,
      upgraded: expect.stringMatching(/^nfkc:\$argon2id\$/),
      upgradedAgain: false,
      after: [true, true, true],
    })
})

describe('each kind accepts no spelling beyond its form', () => {
  test('a hash made from a decomposed é, as typed, takes that spelling only until it is upgraded', async () => {
    const stored = await argon2id().hash(DECOMPOSED)
    expect(await answers(stored, [DECOMPOSED, COMPOSED])).toEqual([true, false])
  })

  test('the markers name the form: the same hash read as NFC or NFKC takes those spellings', async () => {
    const made = await argon2id().hash('mot de passe 2')
    expect(await answers(`nfc:${made}`, ['mot de passe 2', 'mot de passe ²'])).toEqual([true, false])
    expect(await answers(`nfkc:${made}`, ['mot de passe 2', 'mot de passe ²'])).toEqual([true, true])
    expect(await answers(made, ['mot de passe 2', 'mot de passe ²'])).toEqual([true, false])
  })

  test('a marked hash is routed, identified and checked for upgrade by the hash it carries', async () => {
    const legacy = await bcrypt({ cost: 4 }).hash('hunter2hunter2')
    expect(context.identify(`nfc:${legacy}`)).toBe('bcrypt')
    expect(context.needsUpgrade(`nfc:${legacy}`)).toBe(true)
    for (const broken of ['nfc:', 'nfc:$argon2id$v=19$m=1024', 'nfkc:nfc:x'])
      await expect(context.verify(broken, 'hunter2hunter2')).rejects.toMatchObject({
        code: 'ERR_AUTHLAB_INVALID_HASH',
      })
  })
})
