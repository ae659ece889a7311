import { describe, expect, test } from 'vitest'
import {
  type AlgorithmProfile,
  ARGON2ID,
  BCRYPT,
  checkStoredWork,
  decodeKdfHash,
  encodeKdfHash,
  formatBcryptHash,
  type KdfProfile,
  type Params,
  PBKDF2_SHA256,
  resolveLimits,
  SCRYPT,
  storedHashWork,
  worstForDefaultLimits,
  worstInBudget,
} from '../src/index.js'

const salt = new Uint8Array(16).fill(7)
const kdfHash = (profile: KdfProfile, params: Params, bytes = 32) =>
  encodeKdfHash(profile, params, salt, new Uint8Array(bytes).fill(9))

/** The default hasher's limits and its worst case, as a hasher configured with `params` has them. */
const worstOf = (profile: AlgorithmProfile, params: Params, genuine: string, hashBytes: number) => {
  const limits = resolveLimits(profile, params, hashBytes)
  return { limits, ...worstInBudget(profile, limits, genuine) }
}

const accepted =
  (profile: AlgorithmProfile, limits: ReturnType<typeof resolveLimits>) =>
  (c: { params: Params; hashBytes: number }) =>
    checkStoredWork(profile, c.params, c.hashBytes, limits)

describe('worstInBudget: the costliest stored hash the default limits accept', () => {
  test('scrypt (RFC 7914): N doubles to the budget of 2^21 N·r·p and 256 MiB; every step beyond is refused', () => {
    const { limits, worst, beyond } = worstOf(SCRYPT, SCRYPT.defaults, kdfHash(SCRYPT, SCRYPT.defaults), 32)
    expect(worst.params).toEqual({ ln: 18, r: 8, p: 1 })
    expect(worst.work).toEqual(limits.budget)
    expect(decodeKdfHash(SCRYPT, worst.encoded).params).toEqual(worst.params)
    expect(() => accepted(SCRYPT, limits)(worst)).not.toThrow()
    expect(beyond.map((c) => c.label)).toEqual([
      'ln=19,r=8,p=1 (ln +1)',
      'ln=18,r=9,p=1 (r +1)',
      'ln=18,r=8,p=2 (p +1)',
    ])
    for (const c of beyond) expect(() => accepted(SCRYPT, limits)(c)).toThrow(/over the budget/)
  })

  test('argon2id (RFC 9106): m to 256 MiB, t to 2^20 KiB-passes; p adds no work and keeps its value', () => {
    const { limits, worst, beyond } = worstOf(
      ARGON2ID,
      ARGON2ID.defaults,
      kdfHash(ARGON2ID, ARGON2ID.defaults),
      32,
    )
    expect(worst.params).toEqual({ m: 262_144, t: 4, p: 1 })
    expect(worst.work).toEqual(limits.budget)
    expect(beyond.map((c) => c.label)).toEqual(['m=262145,t=4,p=1 (m +1)', 'm=262144,t=5,p=1 (t +1)'])
  })

  test('PBKDF2 (RFC 8018 §5.2): the iterations fill the budget, and one more output byte is a second block', () => {
    const genuine = kdfHash(PBKDF2_SHA256, PBKDF2_SHA256.defaults)
    const { limits, worst, beyond } = worstOf(PBKDF2_SHA256, PBKDF2_SHA256.defaults, genuine, 32)
    expect(worst.params).toEqual({ iterations: 4_000_000 })
    expect(beyond.map((c) => c.label)).toEqual([
      'iterations=4000001 (iterations +1)',
      'iterations=4000000, 33-byte hash (hash bytes +1)',
    ])
    expect(decodeKdfHash(PBKDF2_SHA256, beyond[1]?.encoded as string).hash).toHaveLength(33)
    for (const c of beyond) expect(() => accepted(PBKDF2_SHA256, limits)(c)).toThrow(/over the budget/)
  })

  test('bcrypt: the cost cap of 14; cost 15 is refused by the cap', () => {
    const genuine = formatBcryptHash(10, salt, new Uint8Array(23))
    const { limits, worst, beyond } = worstOf(BCRYPT, BCRYPT.defaults, genuine, 23)
    expect(worst.encoded).toMatch(/^\$2b\$14\$/)
    expect(beyond.map((c) => c.label)).toEqual(['cost=15 (cost +1)'])
    expect(() => accepted(BCRYPT, limits)(beyond[0] as (typeof beyond)[0])).toThrow(/cap of 14/)
  })

  test('a configuration above the default budget moves the edge with it', () => {
    const configured = { ln: 19, r: 8, p: 1 }
    const { worst } = worstOf(SCRYPT, configured, kdfHash(SCRYPT, SCRYPT.defaults), 32)
    expect(worst.params).toEqual({ ln: 19, r: 8, p: 1 })
  })

  test("from a hasher's info: the limits it resolves without options", () => {
    const genuine = kdfHash(PBKDF2_SHA256, PBKDF2_SHA256.defaults)
    const { profile, limits, worst } = worstForDefaultLimits(
      { algorithm: 'pbkdf2-sha256', params: PBKDF2_SHA256.defaults },
      genuine,
    )
    expect(profile).toBe(PBKDF2_SHA256)
    expect(limits.budget.units).toBe(4_000_000)
    expect(worst.params).toEqual({ iterations: 4_000_000 })
  })

  test('a genuine hash already outside the limits is a mistake, not a case', () => {
    const limits = resolveLimits(SCRYPT, SCRYPT.defaults, 32)
    expect(() => worstInBudget(SCRYPT, limits, kdfHash(SCRYPT, { ln: 20, r: 8, p: 1 }))).toThrow(
      /already outside the limits/,
    )
  })
})

describe('storedHashWork: the cost of verifying a stored hash, read from the hash', () => {
  test('bcrypt by its cost, a PHC string by its parameters and output length', () => {
    const bcrypt = formatBcryptHash(10, new Uint8Array(16), new Uint8Array(23))
    expect(storedHashWork(BCRYPT, bcrypt)).toEqual(BCRYPT.work({ cost: 10 }, 23))
    const scrypt = kdfHash(SCRYPT, { ln: 14, r: 8, p: 1 })
    expect(storedHashWork(SCRYPT, scrypt)).toEqual(SCRYPT.work({ ln: 14, r: 8, p: 1 }, 32))
    const pbkdf2 = kdfHash(PBKDF2_SHA256, { iterations: 6400 }, 64)
    expect(storedHashWork(PBKDF2_SHA256, pbkdf2)).toEqual(PBKDF2_SHA256.work({ iterations: 6400 }, 64))
  })

  test('a malformed hash is an InvalidHashError', () => {
    expect(() => storedHashWork(SCRYPT, '$scrypt$ln=x')).toThrow(
      expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_HASH' }),
    )
  })
})
