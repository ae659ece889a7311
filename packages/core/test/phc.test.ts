import assert from 'node:assert/strict'
import { describe, expect, test } from 'vitest'
import {
  checkStoredWork,
  constantTimeEqual,
  decodeBase64,
  decodeKdfHash,
  encodeBase64,
  encodeKdfHash,
  formatPhc,
  PBKDF2_SHA256,
  parsePhc,
  resolveLimits,
  SCRYPT,
} from '../src/index.js'

// passlib's documented scrypt example (passlib.hash.scrypt docs).
const PASSLIB_SCRYPT =
  '$scrypt$ln=16,r=8,p=1$aM15713r3Xsvxbi31lqr1Q$nFNh2CVHVjNldFVKDHDlm4CbdRSCdEBsjjJxD+iCs5E'
// passlib's documented pbkdf2_sha256 example, in its modular crypt form with ab64.
const PASSLIB_PBKDF2 =
  '$pbkdf2-sha256$6400$0ZrzXitFSGltTQnBWOsdAw$Y11AchqV4b0sUisdZd0Xr97KWoymNE0LNNrnEgY4H9M'

describe('base64', () => {
  test('round-trips every length against Node', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 97 + n) & 255)
      const text = encodeBase64(bytes)
      expect(text).toBe(Buffer.from(bytes).toString('base64').replace(/=+$/, ''))
      expect(decodeBase64(text)).toEqual(bytes)
    }
  })
  test.each(['a', 'ab=', 'a b', 'ab\u00e9c', 'AB', 'AAB'])(
    'rejects %j (bad char, padding, length or trailing bits)',
    (t) => {
      expect(() => decodeBase64(t)).toThrow(expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_HASH' }))
    },
  )
})

describe('constantTimeEqual', () => {
  test('equal, different, prefix', () => {
    expect(constantTimeEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 2))).toBe(true)
    expect(constantTimeEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 3))).toBe(false)
    expect(constantTimeEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 2, 0))).toBe(false)
    expect(constantTimeEqual(new Uint8Array(0), Uint8Array.of(0))).toBe(false)
  })
})

describe('parsePhc / formatPhc', () => {
  test('reads passlib scrypt and writes it back byte for byte', () => {
    const { id, params, salt, hash } = parsePhc(PASSLIB_SCRYPT)
    expect(id).toBe('scrypt')
    expect(params).toEqual({ ln: '16', r: '8', p: '1' })
    assert.ok(salt && hash, 'salt and hash are present')
    expect(formatPhc({ id: 'scrypt', params: { ln: 16, r: 8, p: 1 }, salt, hash })).toBe(PASSLIB_SCRYPT)
  })
  test('reads the version field', () => {
    expect(parsePhc('$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$c29tZWhhc2hzb21laGFzaA').version).toBe(19)
  })
  test.each([
    ['no leading $', 'scrypt$ln=1'],
    ['bad id', '$SCRYPT$ln=1,r=8,p=1$c2FsdHNhbHQ$c29tZWhhc2hzb21laGFzaA'],
    ['duplicate param', '$scrypt$ln=1,ln=2$c2FsdHNhbHQ$c29tZWhhc2hzb21laGFzaA'],
    ['empty param', '$scrypt$ln=,r=8$c2FsdHNhbHQ$c29tZWhhc2hzb21laGFzaA'],
    ['padding', '$scrypt$ln=1,r=8,p=1$c2FsdHNhbHQ=$c29tZWhhc2hzb21laGFzaA'],
    ['extra field', '$scrypt$ln=1,r=8,p=1$c2FsdHNhbHQ$c29tZWhhc2hzb21laGFzaA$eHg'],
    ['empty salt', '$scrypt$ln=1,r=8,p=1$$c29tZWhhc2hzb21laGFzaA'],
    ['overlong', `$scrypt$ln=1,r=8,p=1$${'A'.repeat(600)}`],
    ['overlong salt', `$scrypt$ln=1,r=8,p=1$${'A'.repeat(100)}$c29tZWhhc2hzb21laGFzaA`],
    ['overlong value', `$scrypt$ln=${'1'.repeat(70)}$c2FsdHNhbHQ$c29tZWhhc2hzb21laGFzaA`],
  ])('rejects %s', (_, encoded) => {
    expect(() => parsePhc(encoded)).toThrow(expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_HASH' }))
  })
})

describe('decodeKdfHash', () => {
  test('passlib scrypt round trip', () => {
    const decoded = decodeKdfHash(SCRYPT, PASSLIB_SCRYPT)
    expect(decoded.params).toEqual({ ln: 16, r: 8, p: 1 })
    expect(encodeKdfHash(SCRYPT, decoded.params, decoded.salt, decoded.hash)).toBe(PASSLIB_SCRYPT)
  })
  test('passlib pbkdf2 modular crypt form with ab64', () => {
    const decoded = decodeKdfHash(PBKDF2_SHA256, PASSLIB_PBKDF2)
    expect(decoded.params).toEqual({ iterations: 6400 })
    expect(decoded.salt).toHaveLength(16)
    expect(decoded.hash).toHaveLength(32)
  })
  test.each([
    ['non-decimal', PASSLIB_SCRYPT.replace('ln=16', 'ln=0x10')],
    ['leading zero', PASSLIB_SCRYPT.replace('ln=16', 'ln=016')],
    ['missing param', PASSLIB_SCRYPT.replace(',p=1', '')],
    ['unknown param', PASSLIB_SCRYPT.replace(',p=1', ',p=1,x=2')],
    ['reordered params', PASSLIB_SCRYPT.replace('ln=16,r=8', 'r=8,ln=16')],
    ['zero r', PASSLIB_SCRYPT.replace('r=8', 'r=0')],
    ['wrong prefix', PASSLIB_SCRYPT.replace('$scrypt$', '$scrypy$')],
    ['truncated hash', PASSLIB_SCRYPT.slice(0, -30)],
    ['truncated to salt', PASSLIB_SCRYPT.slice(0, PASSLIB_SCRYPT.lastIndexOf('$'))],
  ])('InvalidHashError: %s', (_, encoded) => {
    expect(() => decodeKdfHash(SCRYPT, encoded)).toThrow(
      expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_HASH' }),
    )
  })
})

describe('stored-hash limits', () => {
  const owasp = resolveLimits(SCRYPT, SCRYPT.defaults, 32)
  const check = (encoded: string, limits = owasp) => {
    const { params, hash } = decodeKdfHash(SCRYPT, encoded)
    checkStoredWork(SCRYPT, params, hash.length, limits)
  }
  test.each([
    ['N=2^30', PASSLIB_SCRYPT.replace('ln=16', 'ln=30')],
    ['p over its cap', PASSLIB_SCRYPT.replace('p=1', 'p=1000')],
    [
      'each within its cap, together 1 GiB and 2^27 units',
      PASSLIB_SCRYPT.replace('ln=16,r=8,p=1', 'ln=20,r=8,p=16'),
    ],
    ['within the caps, 256 MiB but 2^22 units', PASSLIB_SCRYPT.replace('ln=16,r=8,p=1', 'ln=18,r=8,p=2')],
  ])('ParameterLimitError: %s', (_, encoded) => {
    expect(() => check(encoded)).toThrow(expect.objectContaining({ code: 'ERR_AUTHLAB_PARAMETER_LIMIT' }))
  })
  test('the budget is the larger of the profile’s and the configured parameters’ own work', () => {
    const atTheEdge = PASSLIB_SCRYPT.replace('ln=16,r=8,p=1', 'ln=18,r=8,p=1') // 2^21 units, 256 MiB
    const twice = PASSLIB_SCRYPT.replace('ln=16,r=8,p=1', 'ln=18,r=8,p=2')
    expect(() => check(atTheEdge)).not.toThrow()
    expect(() => check(twice)).toThrow(/over the budget/)
    expect(() => check(twice, resolveLimits(SCRYPT, { ln: 18, r: 8, p: 2 }, 32))).not.toThrow()
  })
  test('limits are configurable, and may not refuse the configured parameters', () => {
    const encoded = PASSLIB_SCRYPT.replace('ln=16', 'ln=12')
    expect(() => check(encoded, resolveLimits(SCRYPT, { ln: 10, r: 8, p: 1 }, 32, { ln: 11 }))).toThrow(
      /ln=12/,
    )
    expect(() => resolveLimits(SCRYPT, SCRYPT.defaults, 32, { units: 2 ** 19 })).toThrow(
      expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_OPTION' }),
    )
  })
  test('PBKDF2 counts output blocks: 10^6 iterations of a 129-byte output is 5 × 10^6 units', () => {
    const long = `$pbkdf2-sha256$1000000$${'A'.repeat(22)}$${'A'.repeat(172)}`
    const { params, hash } = decodeKdfHash(PBKDF2_SHA256, long)
    expect(PBKDF2_SHA256.work(params, hash.length).units).toBe(5_000_000)
    expect(() =>
      checkStoredWork(
        PBKDF2_SHA256,
        params,
        hash.length,
        resolveLimits(PBKDF2_SHA256, PBKDF2_SHA256.defaults, 32),
      ),
    ).toThrow(expect.objectContaining({ code: 'ERR_AUTHLAB_PARAMETER_LIMIT' }))
  })
})
