import { createHash } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import {
  type BcryptEngine,
  type BcryptOptions,
  defineBcryptHasher,
  formatBcryptHash,
  parseBcryptHash,
} from '../src/index.js'

// Openwall crypt_blowfish wrapper.c vector ("U*U"), as kelektiv/node.bcrypt.js test/implementation.js uses it.
const OPENWALL = '$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW'
const SETTING_AND_SALT = OPENWALL.slice(0, 29)
const CHECKSUM = OPENWALL.slice(29)

const codeOf = (action: () => unknown) => {
  try {
    action()
  } catch (error) {
    return (error as { code?: string }).code
  }
  return 'no error'
}

describe('parseBcryptHash', () => {
  test('reads variant, cost, 16-byte salt and 23-byte checksum; writes them back as $2b$', () => {
    for (const variant of ['2a', '2b', '2y']) {
      const parsed = parseBcryptHash(OPENWALL.replace('$2a$', `$${variant}$`))
      expect(parsed).toMatchObject({ variant, cost: 5 })
      expect(parsed.salt).toHaveLength(16)
      expect(parsed.checksum).toHaveLength(23)
      expect(formatBcryptHash(parsed.cost, parsed.salt, parsed.checksum)).toBe(
        OPENWALL.replace('$2a$', '$2b$'),
      )
    }
  })

  test.each([
    ['crypt_blowfish buggy $2x$', OPENWALL.replace('$2a$', '$2x$')],
    ['original $2$', OPENWALL.replace('$2a$', '$2$')],
    ['cost below 4', OPENWALL.replace('$05$', '$03$')],
    ['cost above 31', OPENWALL.replace('$05$', '$32$')],
    ['one-digit cost', OPENWALL.replace('$05$', '$5$')],
    ['one checksum character short', OPENWALL.slice(0, -1)],
    ['one character too many', `${OPENWALL}a`],
    ['character outside the bcrypt alphabet', `${SETTING_AND_SALT}+${CHECKSUM.slice(1)}`],
    // The 22nd salt character carries 4 unused bits; "C" (value 4) sets one, so two strings would name one salt.
    ['non-canonical salt', `${SETTING_AND_SALT.slice(0, -1)}C${CHECKSUM}`],
    ['non-canonical checksum', `${OPENWALL.slice(0, -1)}X`],
    ['not a string', 60 as unknown as string],
  ])('%s → InvalidHashError', (_, encoded) => {
    expect(codeOf(() => parseBcryptHash(encoded))).toBe('ERR_AUTHLAB_INVALID_HASH')
  })
})

/**
 * A stand-in engine (NOT bcrypt: SHA-256 truncated to 23 bytes) that writes `$2a$` like hash-wasm does,
 * so the builder's plumbing can be tested without a bcrypt library in core.
 */
const fakeEngine: BcryptEngine = async (password, cost, salt) => {
  const digest = createHash('sha256').update(salt).update(password).digest().subarray(0, 23)
  return formatBcryptHash(cost, salt, digest).replace('$2b$', '$2a$')
}
const describe4 = { name: 'fake', displayName: 'fake', wraps: 'sha256', runsOn: 'main-thread' } as const
const fake = (options?: BcryptOptions, engine = fakeEngine) =>
  defineBcryptHasher({ describe: describe4, engine, options })

describe('defineBcryptHasher', () => {
  test('writes $2b$ whatever the engine writes, and verifies $2a$/$2y$ spellings of the same hash', async () => {
    const hasher = fake({ cost: 4 })
    const encoded = await hasher.hash('pässword')
    expect(encoded).toMatch(/^\$2b\$04\$/)
    for (const variant of ['2a', '2b', '2y']) {
      expect(await hasher.verify(encoded.replace('$2b$', `$${variant}$`), 'pässword')).toBe(true)
    }
    expect(await hasher.verify(encoded, 'password')).toBe(false)
  })

  test('refuses an engine that ignored the cost or salt it was given', async () => {
    const stubborn: BcryptEngine = async (password, _cost, salt) => fakeEngine(password, 6, salt)
    const hasher = fake({ cost: 4 }, stubborn)
    await expect(hasher.hash('x')).rejects.toMatchObject({ code: 'ERR_AUTHLAB_INVALID_HASH' })
  })

  test('the verify limit defaults to 14 (or the configured cost) and follows limits.cost', async () => {
    const cost15 = OPENWALL.replace('$05$', '$15$')
    for (const encoded of [cost15, OPENWALL.replace('$05$', '$31$')]) {
      await expect(fake().verify(encoded, 'U*U')).rejects.toMatchObject({
        code: 'ERR_AUTHLAB_PARAMETER_LIMIT',
      })
    }
    await expect(fake({ cost: 4, limits: { cost: 4 } }).verify(OPENWALL, 'U*U')).rejects.toMatchObject({
      code: 'ERR_AUTHLAB_PARAMETER_LIMIT',
    })
    expect(codeOf(() => fake({ cost: 15, limits: { cost: 14 } }))).toBe('ERR_AUTHLAB_INVALID_OPTION')
    expect(fake({ cost: 15 }).info.params).toEqual({ cost: 15 })
  })

  test('the 72-byte policy may be lowered, never raised, and NUL never admitted', () => {
    expect(codeOf(() => fake({ policy: { maxBytes: 64 } }))).toBe('no error')
    expect(codeOf(() => fake({ policy: { maxBytes: 73 } }))).toBe('ERR_AUTHLAB_INVALID_OPTION')
    expect(codeOf(() => fake({ policy: { allowNul: true } }))).toBe('ERR_AUTHLAB_INVALID_OPTION')
  })

  test('needsRehash: lower cost or another algorithm; a malformed bcrypt string throws', () => {
    const hasher = fake({ cost: 6 })
    expect(hasher.needsRehash(OPENWALL)).toBe(true)
    expect(hasher.needsRehash(OPENWALL.replace('$05$', '$06$'))).toBe(false)
    expect(hasher.needsRehash(OPENWALL.replace('$05$', '$31$'))).toBe(false)
    expect(hasher.needsRehash('$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHQ$aGFzaA')).toBe(true)
    expect(codeOf(() => hasher.needsRehash(OPENWALL.slice(0, 40)))).toBe('ERR_AUTHLAB_INVALID_HASH')
  })
})
