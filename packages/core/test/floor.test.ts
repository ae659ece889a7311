import { describe, expect, test } from 'vitest'
import {
  ARGON2ID,
  OWASP_ARGON2ID_ROWS,
  OWASP_BCRYPT_MIN_COST,
  OWASP_PBKDF2_ITERATIONS,
  OWASP_SCRYPT_ROWS,
  owaspFloor,
  PBKDF2_SHA256,
  SCRYPT,
} from '../src/index.js'

const codeOf = (action: () => unknown) => {
  try {
    action()
  } catch (error) {
    return (error as { code?: string }).code
  }
  return 'no error'
}

describe('argon2id', () => {
  test.for(OWASP_ARGON2ID_ROWS)('m=$m t=$t p=1 meets the floor; one KiB or one pass less does not', (row) => {
    expect(owaspFloor('argon2id', { ...row, p: 1 })).toMatchObject({ meets: true })
    expect(owaspFloor('argon2id', { ...row, p: 4 })).toMatchObject({ meets: true })
    // A row below in memory is met by no other row with as few passes; one pass less with the same
    // memory is too (the next row up in memory needs more of it).
    expect(owaspFloor('argon2id', { m: row.m - 1, t: row.t, p: 1 }).meets).toBe(false)
    if (row.t > 1) expect(owaspFloor('argon2id', { m: row.m, t: row.t - 1, p: 1 }).meets).toBe(false)
  })

  test('the profile default is the second row; a mix between rows meets the row it dominates', () => {
    expect(owaspFloor('argon2id', ARGON2ID.defaults)).toEqual({
      meets: true,
      row: 'm=19456 (19 MiB), t=2, p=1',
    })
    expect(owaspFloor('argon2id', { m: 16384, t: 3, p: 1 })).toEqual({
      meets: true,
      row: 'm=12288 (12 MiB), t=3, p=1',
    })
    // 10 MiB × 3 passes: more than the 9 MiB row's memory, fewer than its 4 passes.
    const short = owaspFloor('argon2id', { m: 10240, t: 3, p: 1 })
    expect(short.meets).toBe(false)
    expect(short.reason).toMatch(/m=10240 KiB with t=3 is below every OWASP argon2id row/)
  })
})

describe('scrypt', () => {
  test.for(OWASP_SCRYPT_ROWS)('N=2^$ln r=8 p=$p meets the floor; one lane less does not', (row) => {
    expect(owaspFloor('scrypt', { ln: row.ln, r: 8, p: row.p })).toMatchObject({ meets: true })
    // One lane short of a row leaves N·r·p under 655,360 (N=2^17 has no lane to spare).
    if (row.p > 1) expect(owaspFloor('scrypt', { ln: row.ln, r: 8, p: row.p - 1 }).meets).toBe(false)
  })

  test('the profile default is the first row; N=2^16 p=1 and N=2^12 p=40 fall short', () => {
    expect(owaspFloor('scrypt', SCRYPT.defaults)).toEqual({ meets: true, row: 'N=2^17 (128 MiB), r=8, p=1' })
    // Half the memory of the first row and half its work: below the 655,360 of the weakest rows.
    expect(owaspFloor('scrypt', { ln: 16, r: 8, p: 1 }).meets).toBe(false)
    // Work enough (1,310,720) but 4 MiB per lane, under the 8 MiB of the smallest row.
    expect(owaspFloor('scrypt', { ln: 12, r: 8, p: 40 }).meets).toBe(false)
  })

  test('r other than 8 counts by memory (128·N·r) and work (N·r·p)', () => {
    // better-auth's default: 32 MiB per lane, N·r·p = 262,144.
    const betterAuth = owaspFloor('scrypt', { ln: 14, r: 16, p: 1 })
    expect(betterAuth.meets).toBe(false)
    expect(betterAuth.reason).toMatch(/N=2\^14 r=16 p=1 \(32 MiB per lane, N·r·p = 262144\)/)
    // N=2^16 r=16 p=1 is N=2^17 r=8 p=1 in memory and work.
    expect(owaspFloor('scrypt', { ln: 16, r: 16, p: 1 })).toMatchObject({
      meets: true,
      row: 'N=2^17 (128 MiB), r=8, p=1',
    })
    // N=2^15 r=4 p=10 is N=2^14 r=8 p=10 in memory and work: meets the N=2^14 p=5 row.
    expect(owaspFloor('scrypt', { ln: 15, r: 4, p: 10 })).toMatchObject({
      meets: true,
      row: 'N=2^14 (16 MiB), r=8, p=5',
    })
    // N=2^14 r=4 is N=2^13 r=8: the last row; at r=2 it is 4 MiB per lane, under every row.
    expect(owaspFloor('scrypt', { ln: 14, r: 4, p: 10 })).toMatchObject({
      meets: true,
      row: 'N=2^13 (8 MiB), r=8, p=10',
    })
    expect(owaspFloor('scrypt', { ln: 14, r: 2, p: 20 }).meets).toBe(false)
  })
})

test('bcrypt: cost 10 and up', () => {
  expect(owaspFloor('bcrypt', { cost: OWASP_BCRYPT_MIN_COST })).toEqual({ meets: true, row: 'cost 10' })
  expect(owaspFloor('bcrypt', { cost: 12 }).meets).toBe(true)
  expect(owaspFloor('bcrypt', { cost: 9 })).toMatchObject({
    meets: false,
    reason: expect.stringMatching(/below/),
  })
})

test('PBKDF2: the count for each digest; SHA-1 meets it for legacy systems only', () => {
  expect(owaspFloor('pbkdf2-sha256', PBKDF2_SHA256.defaults)).toEqual({
    meets: true,
    row: 'PBKDF2-HMAC-SHA256 600,000 iterations',
  })
  // The sheet's counts, written out: a mistyped table fails here, not only in the loop over it.
  for (const [digest, count] of [
    ['sha256', 600_000],
    ['sha512', 220_000],
    ['sha1', 1_400_000],
  ] as const) {
    expect(OWASP_PBKDF2_ITERATIONS[digest]).toBe(count)
    expect(owaspFloor(`pbkdf2-${digest}`, { iterations: count }).meets, digest).toBe(true)
    expect(owaspFloor(`pbkdf2-${digest}`, { iterations: count - 1 }).meets, digest).toBe(false)
  }
  expect(owaspFloor('pbkdf2-sha1', { iterations: 1_400_000 })).toMatchObject({ legacyOnly: true })
  // Web Crypto PBKDF2 at Cloudflare's production cap of 100,000 iterations.
  expect(owaspFloor('pbkdf2-sha256', { iterations: 100_000 }).reason).toBe(
    "100,000 iterations of PBKDF2-HMAC-SHA256 are below OWASP's 600,000",
  )
})

test('an algorithm without an OWASP floor, or a parameter missing or not a positive integer, is a typed error', () => {
  expect(codeOf(() => owaspFloor('md5', {}))).toBe('ERR_AUTHLAB_INVALID_OPTION')
  expect(codeOf(() => owaspFloor('argon2id', { m: 19456, t: 2 }))).toBe('ERR_AUTHLAB_INVALID_OPTION')
  expect(codeOf(() => owaspFloor('scrypt', { ln: '17', r: 8, p: 1 }))).toBe('ERR_AUTHLAB_INVALID_OPTION')
  expect(codeOf(() => owaspFloor('bcrypt', { cost: 0 }))).toBe('ERR_AUTHLAB_INVALID_OPTION')
  expect(codeOf(() => owaspFloor('pbkdf2-sha256', { iterations: 1.5 }))).toBe('ERR_AUTHLAB_INVALID_OPTION')
})
