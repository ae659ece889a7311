import { createHasher as bcrypt } from '@authlab/hash-bcrypt'
import { createHasher as scrypt } from '@authlab/hash-scrypt'
import { createHasher as scryptJs } from '@authlab/hash-scrypt-js'
import { describe, expect, test } from 'vitest'
import { createPasswordContext } from '../src/index.js'

const PASSWORD = 'correct horse battery staple'

/** A pure-JS scrypt that runs one derivation at a time and refuses a second (OverloadError). */
const bounded = () => scryptJs({ ln: 10, r: 8, p: 1, maxConcurrent: 1 })

/**
 * A stored hash in current's format whose verify holds the hasher a while: its parameters are in the
 * hash (ln=13: 8 MiB, over a hundred chunks on the main thread for scrypt-js). Made natively.
 */
const slowHash = () => scrypt({ ln: 13, r: 8, p: 1 }).hash('a slow one')

const overloaded = { code: 'ERR_AUTHLAB_OVERLOAD' }

test('a context just made does not fail its first requests while it makes its dummy hash', async () => {
  // No legacy hasher: the missing-user dummy is made by `current`, and takes its one slot at creation.
  const context = createPasswordContext({ current: bounded() })
  const stored = await context.hash(PASSWORD)
  expect(await context.verify(stored, PASSWORD)).toEqual({ valid: true })

  const fresh = createPasswordContext({ current: bounded() })
  expect(await fresh.verify(null, PASSWORD)).toEqual({ valid: false })
})

// A dummy in a format without a bound (the first legacy one, better-auth's scrypt) is refused as one in
// current's own format is: the context's admission, not the hasher's, decides.
describe.each([
  ['bcrypt, which has no bound', 'bcrypt'],
  ["current's own", 'scrypt'],
] as const)('with missingUserFormat %s', (_, missingUserFormat) => {
  test('while current is full, every kind of account is refused alike; after, each answers as before', async () => {
    const context = createPasswordContext({
      current: bounded(),
      legacy: [bcrypt({ cost: 4 })],
      missingUserFormat,
    })
    const own = await context.hash(PASSWORD)
    const imported = await bcrypt({ cost: 4 }).hash(PASSWORD)
    const calls = {
      missing: () => context.verify(null, PASSWORD),
      'stored, right password': () => context.verify(own, PASSWORD),
      'stored, wrong password': () => context.verify(own, 'wrong'),
      'bcrypt import, right password': () => context.verify(imported, PASSWORD),
      'bcrypt import, wrong password': () => context.verify(imported, 'wrong'),
      'a sign-up': () => context.hash(PASSWORD),
    }

    // Every call reaches the context in this same tick, after the first has taken the one slot.
    const holding = context.verify(own, PASSWORD)
    const whileFull = await Promise.allSettled(Object.values(calls).map((call) => call()))
    expect(await holding).toEqual({ valid: true })
    expect(whileFull).toEqual(
      Object.values(calls).map(() => ({ status: 'rejected', reason: expect.objectContaining(overloaded) })),
    )

    const after = []
    for (const call of Object.values(calls)) after.push(await call())
    expect(after).toEqual([
      { valid: false },
      { valid: true },
      { valid: false },
      { valid: true, rehashed: expect.stringMatching(/^nfc:\$scrypt\$/) },
      { valid: false },
      expect.stringMatching(/^nfc:\$scrypt\$/),
    ])
  })
})

test('a right password whose upgrade cannot be made under load still logs in', async () => {
  const current = bounded()
  const context = createPasswordContext({ current, legacy: [bcrypt({ cost: 4 })] })
  await context.verify(null, PASSWORD)
  const imported = await bcrypt({ cost: 4 }).hash(PASSWORD)
  // The app uses the same hasher outside the context: the upgrade meets its own bound, not the context's.
  const outside = current.verify(await slowHash(), 'a slow one')
  const result = await context.verify(imported, PASSWORD)
  await outside
  expect(result).toEqual({ valid: true, upgradeError: expect.objectContaining(overloaded) })
})
