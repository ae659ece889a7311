import { describe, expect, test } from 'vitest'
import { decodeKdfHash, guessHashFamily, parseBcryptHash, SCRYPT } from '../src/index.js'

const BCRYPT_HASH = '$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy'
const ARGON2ID_HASH = '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$aGFzaGhhc2hoYXNoaGFzaA'

describe('a stored hash of another format', () => {
  test('is named plainly, with the way out, and never quoted', () => {
    expect(() => decodeKdfHash(SCRYPT, BCRYPT_HASH)).toThrow(
      'the stored hash is bcrypt, not scrypt: verify it with a hasher for bcrypt, or route stored hashes of several formats through a password context (@authlab/password-context)',
    )
    expect(() => parseBcryptHash(ARGON2ID_HASH)).toThrow(/the stored hash is argon2id, not bcrypt/)
    expect(() => parseBcryptHash('$6$rounds=5000$saltsalt$abcdef')).toThrow(
      'the stored hash is not bcrypt: it looks like SHA-512-crypt ($6$)',
    )
    expect(() => parseBcryptHash('hunter2hunter2')).toThrow(
      'the stored hash is not bcrypt, nor any recognised password-hash format',
    )
  })

  test('a malformed hash of the right family says what is wrong without quoting it', () => {
    const truncated = BCRYPT_HASH.slice(0, 40)
    expect(() => parseBcryptHash(truncated)).toThrow(/malformed bcrypt hash: .* got 40 characters$/)
    expect(() => decodeKdfHash(SCRYPT, '$scrypt$ln=zz,r=8,p=1$c2FsdHNhbHRzYWx0$aGFzaA')).toThrow(
      'parameter "ln" is not a decimal integer',
    )
    expect(() => decodeKdfHash(SCRYPT, '$scrypt$ln=1_7,r=8,p=1$c2FsdHNhbHRzYWx0$aGFzaA')).toThrow(
      'malformed parameter (not name=value in the PHC alphabet)',
    )
  })

  test('routable families and look-alikes are told apart by identifier alone', () => {
    expect(guessHashFamily(BCRYPT_HASH)).toEqual({ family: 'bcrypt', routable: true })
    expect(guessHashFamily(ARGON2ID_HASH)).toEqual({ family: 'argon2id', routable: true })
    expect(guessHashFamily('$argon2i$v=19$m=1,t=1,p=1$c2FsdA$aGFzaA')).toEqual({
      family: 'argon2i or argon2d (not argon2id)',
      routable: false,
    })
    expect(guessHashFamily('')).toEqual({ family: 'unknown', routable: false })
  })
})
