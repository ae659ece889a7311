import { OverloadError } from '@authlab/core'
import { createHasher as argon2 } from '@authlab/hash-argon2'
import { createHasher as bcrypt } from '@authlab/hash-bcrypt'
import { createHasher as pbkdf2 } from '@authlab/hash-pbkdf2'
import { describe, expect, test } from 'vitest'
import { BETTER_AUTH_SCRYPT, betterAuthScrypt, createPasswordContext } from '../src/index.js'
import { spy } from './spy.js'

// Cheap parameters: which hasher a missing user costs is under test, not the cost itself.
const cheapArgon2 = () => argon2({ m: 1024, t: 1, p: 1 })
const cheapBcrypt = () => bcrypt({ cost: 4 })

/** Lets the context's dummy hash, started at creation, settle (or fail and be dropped). */
const settled = () => new Promise((resolve) => setTimeout(resolve, 50))

describe('the format a missing user costs', () => {
  test('is the first legacy hasher’s by default: at the start of a migration, every user is on it', async () => {
    const current = spy(cheapArgon2())
    const legacy = spy(cheapBcrypt())
    const context = createPasswordContext({ current: current.hasher, legacy: [legacy.hasher, pbkdf2()] })
    await settled()
    current.reset()
    legacy.reset()
    expect(await context.verify(null, 'hunter2')).toEqual({ valid: false })
    expect({ current: current.calls.verify.length, legacy: legacy.calls.verify.length }).toEqual({
      current: 0,
      legacy: 1,
    })
    expect(legacy.calls.verify[0]).toMatch(/^\$2b\$04\$/)
  })

  test('is current’s when there is no legacy hasher', async () => {
    const current = spy(cheapArgon2())
    const context = createPasswordContext({ current: current.hasher })
    await settled()
    current.reset()
    expect(await context.verify(undefined, 'hunter2')).toEqual({ valid: false })
    expect(current.calls).toEqual({ hash: 0, verify: [expect.stringMatching(/^\$argon2id\$/)] })
    // Written with the configured parameters: a real user's verify costs the same.
    expect(cheapArgon2().needsRehash(current.calls.verify[0] as string)).toBe(false)
  })

  test("is the one named by missingUserFormat, better-auth's scrypt included", async () => {
    const current = spy(cheapArgon2())
    const scrypt = spy(betterAuthScrypt)
    // Listing the built-in reader as legacy replaces it with this spied copy; the routing is the same.
    const context = createPasswordContext({
      current: current.hasher,
      legacy: [cheapBcrypt(), scrypt.hasher],
      missingUserFormat: BETTER_AUTH_SCRYPT,
    })
    await settled()
    current.reset()
    expect(await context.verify(null, 'hunter2')).toEqual({ valid: false })
    expect(scrypt.calls.verify).toEqual([expect.stringMatching(/^[0-9a-f]{32}:[0-9a-f]{128}$/)])
    expect(current.calls).toEqual({ hash: 0, verify: [] })
  })

  test('must be a format the context reads', () => {
    for (const missingUserFormat of ['scrypt', 'md5', 42])
      expect(() =>
        createPasswordContext({
          current: cheapArgon2(),
          missingUserFormat: missingUserFormat as typeof BETTER_AUTH_SCRYPT,
        }),
      ).toThrow(expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_OPTION' }))
  })
})

test("null, undefined and a stored '' cost one verify of one dummy hash each, and are never valid", async () => {
  const current = spy(cheapArgon2())
  const context = createPasswordContext({ current: current.hasher })
  await settled()
  current.reset()
  for (const encoded of [null, undefined, '', ''])
    expect(await context.verify(encoded, 'correct horse battery staple')).toEqual({ valid: false })
  expect(current.calls.verify).toHaveLength(4)
  expect(new Set(current.calls.verify).size).toBe(1)
})

test('a password the dummy’s hasher refuses is not valid, never an error, and costs the same one verify', async () => {
  const current = spy(cheapArgon2())
  const legacy = spy(cheapBcrypt())
  const context = createPasswordContext({ current: current.hasher, legacy: [legacy.hasher] })
  await settled()
  legacy.reset()
  // bcrypt refuses the empty password, a NUL and a lone surrogate; argon2id the first and the last.
  const refused = ['', 'ab\u0000cd', 'abc\ud800def']
  for (const password of refused) expect(await context.verify(null, password)).toEqual({ valid: false })
  expect(legacy.calls.verify).toHaveLength(refused.length)
})

test('a dummy hash that failed when the context was made is made again, not kept failing', async () => {
  const current = spy(cheapArgon2())
  current.failNextHash(new OverloadError('hasher pool full'))
  const context = createPasswordContext({ current: current.hasher })
  await settled()
  expect(await context.verify(null, 'hunter2')).toEqual({ valid: false })
  expect(await context.verify(null, 'hunter2')).toEqual({ valid: false })
  // One failed hash at creation, one that succeeded at the first missing-user verify, none after.
  expect(current.calls.hash).toBe(2)
  expect(current.calls.verify).toHaveLength(2)
})

test('a missing-user verify during an outage fails as a stored user’s would, and the next one works', async () => {
  const current = spy(cheapArgon2())
  current.failNextHash(new OverloadError('hasher pool full'))
  const context = createPasswordContext({ current: current.hasher })
  // Asked before the failed dummy hash was dropped: that caller sees the failure, typed, as a stored
  // user's verify in an overloaded pool would; the next one makes the dummy again.
  await expect(context.verify(null, 'hunter2')).rejects.toMatchObject({ code: 'ERR_AUTHLAB_OVERLOAD' })
  expect(await context.verify(null, 'hunter2')).toEqual({ valid: false })
})
