import { scrypt, timingSafeEqual } from 'node:crypto'
import { InvalidHashError, type Password, type PasswordHasher } from '@authlab/core'
import { inForm } from './normalize.js'

/** The family name of better-auth's default stored hash in a password context. */
export const BETTER_AUTH_SCRYPT = 'better-auth-scrypt'

/**
 * better-auth's default `hashPassword` (@better-auth/utils `password.ts`) stores `saltHex:keyHex`: 16
 * random bytes as 32 lower-case hex characters, a colon, then the 64-byte key as 128 hex characters.
 * The format carries no parameters, so they are better-auth's fixed ones.
 */
export const BETTER_AUTH_FORMAT = /^[0-9a-f]{32}:[0-9a-f]{128}$/

// better-auth's fixed parameters: scrypt N=16384, r=16, p=1, dkLen=64 (@better-auth/utils password.ts).
const N = 16384
const R = 16
const P = 1
const KEY_BYTES = 64
// 128·N·r = 32 MiB is exactly node:crypto's default maxmem, which it refuses: give it twice that.
const MAXMEM = 2 * 128 * N * R

function derive(password: Password, salt: string): Promise<Buffer> {
  // better-auth normalises text with NFKC before hashing; bytes are taken as given.
  const key = inForm(password, 'NFKC')
  return new Promise((resolve, reject) =>
    // The salt is the hex STRING used as bytes (its UTF-8), not the 16 bytes it spells: that is what
    // better-auth passes to scrypt, so decoding it would derive a different key.
    scrypt(key, salt, KEY_BYTES, { N, r: R, p: P, maxmem: MAXMEM }, (error, derived) =>
      error ? reject(error) : resolve(derived),
    ),
  )
}

/**
 * Reads better-auth's default hashes so a password context can verify them and upgrade them to its
 * `current` hasher. It never reports them as current: there are no parameters to compare, and the
 * point of reading them is to move their owners to `current` on their next login.
 */
export const betterAuthScrypt: PasswordHasher = Object.freeze({
  info: Object.freeze({
    name: '@authlab/password-context',
    displayName: "better-auth's default scrypt (saltHex:keyHex)",
    wraps: 'node:crypto scrypt',
    algorithm: BETTER_AUTH_SCRYPT,
    runsOn: 'threadpool' as const,
    params: Object.freeze({ N, r: R, p: P, dkLen: KEY_BYTES }),
  }),
  async hash(password: Password): Promise<string> {
    const salt = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')
    return `${salt}:${(await derive(password, salt)).toString('hex')}`
  },
  async verify(encoded: string, password: Password): Promise<boolean> {
    if (typeof encoded !== 'string' || !BETTER_AUTH_FORMAT.test(encoded)) {
      throw new InvalidHashError("stored hash is not in better-auth's saltHex:keyHex format")
    }
    const [salt, keyHex] = encoded.split(':') as [string, string]
    return timingSafeEqual(await derive(password, salt), Buffer.from(keyHex, 'hex'))
  },
  needsRehash: () => false,
})
