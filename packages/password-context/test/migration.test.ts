import { readFileSync } from 'node:fs'
import { createHasher as argon2 } from '@authlab/hash-argon2'
import { createHasher as bcrypt } from '@authlab/hash-bcrypt'
import { createHasher as pbkdf2 } from '@authlab/hash-pbkdf2'
import { createHasher as scrypt } from '@authlab/hash-scrypt'
import { expect, test } from 'vitest'
import { createPasswordContext } from '../src/index.js'

interface Vector {
  readonly maker: string
  readonly password: string
  readonly encoded: string
}
// Made by pyca/bcrypt, passlib, argon2-cffi and hashlib (test/vectors/make-vectors.py): implementations
// independent of every authlab package, so a shared misreading of a format cannot pass unnoticed.
const { vectors } = JSON.parse(
  readFileSync(new URL('./vectors/mixed-formats.json', import.meta.url), 'utf8'),
) as { vectors: Vector[] }

// Cheap parameters keep 1,000 upgrades to seconds; the routing, not the cost, is under test.
const current = argon2({ m: 1024, t: 1, p: 1 })
const context = createPasswordContext({ current, legacy: [bcrypt(), scrypt(), pbkdf2()] })

/** Another password of at most the same UTF-8 length, so bcrypt's 72-byte policy still admits it. */
const wrong = (password: string) => {
  const chars = Array.from(password) // code points, so an emoji's surrogate pair is never split
  return `${chars.slice(0, -1).join('')}${chars.at(-1) === 'a' ? 'b' : 'a'}`
}

async function inBatches<T, R>(items: readonly T[], run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = []
  for (let i = 0; i < items.length; i += 32)
    results.push(...(await Promise.all(items.slice(i, i + 32).map(run))))
  return results
}

test('1,000 hashes from independent implementations verify and upgrade to argon2id; wrong passwords never verify', async () => {
  expect(vectors).toHaveLength(1000)
  expect(new Set(vectors.map((v) => v.maker)).size).toBe(7)
  const right = await inBatches(vectors, (v) => context.verify(v.encoded, v.password))
  const failures = vectors.filter(
    (_, i) => !right[i]?.valid || !right[i]?.rehashed?.startsWith('nfc:$argon2id$'),
  )
  expect(failures.map((v) => v.maker)).toEqual([])

  const upgraded = await inBatches(
    vectors.map((v, i) => [right[i]?.rehashed as string, v.password] as const),
    ([rehashed, password]) => context.verify(rehashed, password),
  )
  expect(upgraded.every((r) => r.valid && r.rehashed === undefined)).toBe(true)

  const wrongs = await inBatches(vectors, (v) => context.verify(v.encoded, wrong(v.password)))
  expect(wrongs.filter((r) => r.valid)).toEqual([])
}, 120_000)

test('a current-format hash is upgraded when weaker than the configured parameters or made elsewhere', async () => {
  const weaker = await argon2({ m: 512, t: 1, p: 1 }).hash('hunter2hunter2')
  const madeElsewhere = await current.hash('hunter2hunter2')
  const own = await context.hash('hunter2hunter2')
  expect([weaker, madeElsewhere, own].map(context.needsUpgrade)).toEqual([true, true, false])
  for (const stored of [weaker, madeElsewhere])
    expect((await context.verify(stored, 'hunter2hunter2')).rehashed).toMatch(
      /^nfc:\$argon2id\$v=19\$m=1024,t=1,p=1\$/,
    )
  expect(await context.verify(own, 'hunter2hunter2')).toEqual({ valid: true })
  // A marked hash with weaker parameters is upgraded too, keeping its form.
  expect(context.needsUpgrade(`nfc:${weaker}`)).toBe(true)
})

test('a right password that the current hasher refuses still logs in, keeping the old hash', async () => {
  const long = 'x'.repeat(100) // over bcrypt's 72-byte key
  const toBcrypt = createPasswordContext({ current: bcrypt({ cost: 4 }), legacy: [current] })
  const stored = await current.hash(long)
  expect(await toBcrypt.verify(stored, long)).toEqual({ valid: true })
  expect(toBcrypt.needsUpgrade(stored)).toBe(true)
})

test('needsUpgrade refuses a broken hash with InvalidHashError, legacy and current alike', async () => {
  const context = createPasswordContext({ current, legacy: [bcrypt()] })
  const brokenCurrent = (await current.hash('x')).slice(0, 30)
  const brokenLegacy = '$2b$10$tooshort'
  for (const broken of [brokenCurrent, brokenLegacy])
    expect(() => context.needsUpgrade(broken)).toThrow(
      expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_HASH' }),
    )
})
