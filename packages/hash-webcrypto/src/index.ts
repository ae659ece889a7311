import { defineKdfHasher, type KdfHasher, PBKDF2_SHA256, type Pbkdf2Options } from '@authlab/core'

// Apps branch on these errors' codes; re-exported so a login route needs only this package.
export * from '@authlab/core/errors'

export type { Pbkdf2Options as WebCryptoOptions }

/**
 * PBKDF2-SHA256 (RFC 8018 §5.2) through the Web Cryptography API's `crypto.subtle.deriveBits`, the
 * one password KDF every browser and server runtime ships. No Node-only API is used here, so the
 * same code runs in browsers, Deno and Bun; on Node the derivation runs on the libuv threadpool.
 * Same PHC strings as @authlab/hash-pbkdf2: each verifies the other's hashes.
 */
export function createHasher(options?: Pbkdf2Options): KdfHasher {
  return defineKdfHasher({
    algorithm: PBKDF2_SHA256,
    describe: {
      name: '@authlab/hash-webcrypto',
      displayName: 'PBKDF2-SHA256 (WebCrypto)',
      wraps: 'crypto.subtle.deriveBits PBKDF2',
      runsOn: 'threadpool',
    },
    async kdf(password, salt, params, length) {
      // Web Crypto takes a BufferSource over an ArrayBuffer, never a SharedArrayBuffer (WebIDL): the
      // inputs are copied into views of their own, a few dozen bytes beside the iterations.
      const key = await crypto.subtle.importKey('raw', new Uint8Array(password), 'PBKDF2', false, [
        'deriveBits',
      ])
      const bits = await crypto.subtle.deriveBits(
        {
          name: 'PBKDF2',
          hash: 'SHA-256',
          salt: new Uint8Array(salt),
          iterations: params.iterations as number,
        },
        key,
        length * 8,
      )
      return new Uint8Array(bits)
    },
    options,
  })
}

/** Ready with the OWASP 600,000 iterations: `await hasher.hash(password)`, `await hasher.verify(stored, password)`. */
export const hasher: KdfHasher = createHasher()
