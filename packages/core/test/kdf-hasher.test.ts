import { pbkdf2Sync } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import {
  ARGON2ID,
  BCRYPT_PASSWORD_POLICY,
  checkPassword,
  DEFAULT_PASSWORD_POLICY,
  defineKdfHasher,
  PBKDF2_SHA256,
  type Pbkdf2Options,
  resolvePasswordPolicy,
} from '../src/index.js'

const code = (expected: string) => expect.objectContaining({ code: expected })

describe('password policy', () => {
  test('defaults: empty refused, 4096 bytes, NUL allowed', () => {
    expect(() => checkPassword('', DEFAULT_PASSWORD_POLICY)).toThrow(code('ERR_AUTHLAB_PASSWORD_POLICY'))
    expect(checkPassword('a\u0000b', DEFAULT_PASSWORD_POLICY)).toEqual(Uint8Array.of(97, 0, 98))
    expect(checkPassword('é'.repeat(2048), DEFAULT_PASSWORD_POLICY)).toHaveLength(4096)
    expect(() => checkPassword(`${'é'.repeat(2048)}x`, DEFAULT_PASSWORD_POLICY)).toThrow(/4097 bytes/)
  })
  test('counts UTF-8 bytes, not UTF-16 units: bcrypt refuses 37 "é" (74 bytes)', () => {
    expect(checkPassword('é'.repeat(36), BCRYPT_PASSWORD_POLICY)).toHaveLength(72)
    expect(() => checkPassword('é'.repeat(37), BCRYPT_PASSWORD_POLICY)).toThrow(
      code('ERR_AUTHLAB_PASSWORD_POLICY'),
    )
    expect(() => checkPassword('a\u0000', BCRYPT_PASSWORD_POLICY)).toThrow(/NUL/)
  })
  test('lone surrogates have no UTF-8 form and are refused; pairs are fine', () => {
    expect(() => checkPassword('\uD83D', DEFAULT_PASSWORD_POLICY)).toThrow(/surrogate/)
    expect(() => checkPassword('\uDC00x', DEFAULT_PASSWORD_POLICY)).toThrow(/surrogate/)
    expect(checkPassword('🔑', DEFAULT_PASSWORD_POLICY)).toHaveLength(4)
  })
  test('a ceiling cannot be raised by overrides', () => {
    expect(
      resolvePasswordPolicy({ maxBytes: 50 }, BCRYPT_PASSWORD_POLICY, BCRYPT_PASSWORD_POLICY).maxBytes,
    ).toBe(50)
    expect(() =>
      resolvePasswordPolicy({ maxBytes: 73 }, BCRYPT_PASSWORD_POLICY, BCRYPT_PASSWORD_POLICY),
    ).toThrow(code('ERR_AUTHLAB_INVALID_OPTION'))
    expect(() =>
      resolvePasswordPolicy({ allowNul: true }, BCRYPT_PASSWORD_POLICY, BCRYPT_PASSWORD_POLICY),
    ).toThrow(/NUL/)
    expect(() => resolvePasswordPolicy({ minBytes: 5, maxBytes: 4 })).toThrow(
      code('ERR_AUTHLAB_INVALID_OPTION'),
    )
  })
})

const pbkdf2Hasher = (iterations: number, options: Pbkdf2Options = {}) =>
  defineKdfHasher({
    algorithm: PBKDF2_SHA256,
    options: { ...options, iterations },
    describe: { name: 'test', displayName: 'test', wraps: 'pbkdf2Sync', runsOn: 'main-thread' },
    kdf: async (password, salt, params, length) =>
      pbkdf2Sync(password, salt, params.iterations as number, length, 'sha256'),
  })

describe('defineKdfHasher', () => {
  test('invalid options are InvalidOptionError', () => {
    for (const make of [
      () => pbkdf2Hasher(0),
      () => pbkdf2Hasher(1.5),
      () => pbkdf2Hasher(20_000_000, { limits: { iterations: 10_000_000 } }), // limits below the cost
      () => pbkdf2Hasher(1000, { saltLength: 4 }),
      () => pbkdf2Hasher(1000, { keyLength: 8 }),
      () => pbkdf2Hasher(1000, { limits: { rounds: 5 } }),
      () => pbkdf2Hasher(1000, { limits: { iterations: -1 } }),
    ]) {
      expect(make).toThrow(code('ERR_AUTHLAB_INVALID_OPTION'))
    }
  })
  test('a configured cost above the default cap raises the cap for that hasher', () => {
    expect(pbkdf2Hasher(20_000_000).info.params).toEqual({ iterations: 20_000_000 })
  })
  test('needsRehash never throws for a well-formed hash over the caps or the budget; verify refuses it', async () => {
    const hasher = pbkdf2Hasher(1000)
    const overCap = `$pbkdf2-sha256$i=10000000000$${'A'.repeat(22)}$${'A'.repeat(43)}`
    expect(hasher.needsRehash(overCap)).toBe(false)
    await expect(hasher.verify(overCap, 'pw')).rejects.toThrow(code('ERR_AUTHLAB_PARAMETER_LIMIT'))
  })
  test('salt and key lengths are written and read back', async () => {
    const hasher = pbkdf2Hasher(1000, { saltLength: 24, keyLength: 64 })
    const encoded = await hasher.hash('pw')
    const [, , , salt, hash] = encoded.split('$')
    expect(Buffer.from(salt as string, 'base64')).toHaveLength(24)
    expect(Buffer.from(hash as string, 'base64')).toHaveLength(64)
    expect(await hasher.verify(encoded, 'pw')).toBe(true)
    // A shorter salt or key than configured is weaker too.
    expect(pbkdf2Hasher(1000, { saltLength: 32 }).needsRehash(encoded)).toBe(true)
    expect(pbkdf2Hasher(1000, { keyLength: 128 }).needsRehash(encoded)).toBe(true)
  })
  test('derive is the raw KDF with the configured parameters, and checks its length', async () => {
    const hasher = pbkdf2Hasher(1)
    const key = await hasher.derive('passwd', 'salt', 64)
    expect(Buffer.from(key).toString('hex')).toMatch(/^55ac046e56e3089f/) // RFC 7914 §11 #1
    await expect(hasher.derive('passwd', 'salt', 0)).rejects.toThrow(code('ERR_AUTHLAB_INVALID_OPTION'))
    await expect(hasher.derive('passwd', 'salt', 1025)).rejects.toThrow(code('ERR_AUTHLAB_INVALID_OPTION'))
  })
  test('derive refuses what the algorithm cannot take, typed and before the KDF runs', async () => {
    // As the argon2 bindings do (node-argon2 "Salt is too short", node:crypto ERR_OUT_OF_RANGE): an
    // untyped error from inside the KDF, which the hasher must never let through.
    let calls = 0
    const argon2 = defineKdfHasher({
      algorithm: ARGON2ID,
      options: { m: 8, t: 1, p: 1 },
      describe: { name: 'argon2-model', displayName: 'm', wraps: 'm', runsOn: 'main-thread' },
      kdf: async (_password, salt, _params, length) => {
        calls++
        if (salt.length < 8 || length < 4) throw new Error('Salt is too short')
        return new Uint8Array(length)
      },
    })
    for (const salt of ['', 'abc', new Uint8Array(7)])
      await expect(argon2.derive('password', salt, 32)).rejects.toThrow(
        expect.objectContaining({
          code: 'ERR_AUTHLAB_INVALID_OPTION',
          message: expect.stringMatching(/at least 8 bytes/),
        }),
      )
    for (const length of [1, 3])
      await expect(argon2.derive('password', 'saltsalt', length)).rejects.toThrow(
        expect.objectContaining({
          code: 'ERR_AUTHLAB_INVALID_OPTION',
          message: expect.stringMatching(/from 4 to/),
        }),
      )
    expect(calls).toBe(0)
    expect(await argon2.derive('password', 'saltsalt', 4)).toHaveLength(4)
    // PBKDF2 and scrypt take any salt: RFC 7914 §11–12's own answers use "salt" and "".
    expect(await pbkdf2Hasher(1).derive('passwd', '', 16)).toHaveLength(16)
  })
  test('verify refuses another algorithm’s hash with InvalidHashError; needsRehash says rehash', async () => {
    const hasher = pbkdf2Hasher(1000)
    const scrypt = '$scrypt$ln=16,r=8,p=1$aM15713r3Xsvxbi31lqr1Q$nFNh2CVHVjNldFVKDHDlm4CbdRSCdEBsjjJxD+iCs5E'
    await expect(hasher.verify(scrypt, 'password')).rejects.toThrow(code('ERR_AUTHLAB_INVALID_HASH'))
    expect(hasher.needsRehash(scrypt)).toBe(true)
  })
})
