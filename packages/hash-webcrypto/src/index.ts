import {
  defineKdfHasher,
  type KdfHasher,
  type KdfHasherOptions,
  OWASP_DEFAULT_PARAMS,
  PBKDF2_SHA256_FORMAT,
} from '@authlab/core'

export interface WebCryptoOptions extends KdfHasherOptions {
  /** PBKDF2 iterations (default 600,000: OWASP Password Storage Cheat Sheet, PBKDF2-HMAC-SHA256). */
  iterations?: number
}

/**
 * PBKDF2-SHA256 (RFC 8018 §5.2) through the Web Cryptography API's `crypto.subtle.deriveBits`, the
 * one password KDF every browser and server runtime ships. No Node-only API is used here, so the
 * same code runs in browsers, Deno and Bun; on Node the derivation runs on the libuv threadpool.
 * Same PHC strings as @authlab/hash-pbkdf2: each verifies the other's hashes.
 */
export function createHasher({
  iterations = OWASP_DEFAULT_PARAMS['pbkdf2-sha256'].iterations,
  ...options
}: WebCryptoOptions = {}): KdfHasher {
  return defineKdfHasher({
    ...options,
    format: PBKDF2_SHA256_FORMAT,
    params: { iterations },
    describe: {
      name: '@authlab/hash-webcrypto',
      displayName: 'PBKDF2-SHA256 (WebCrypto)',
      wraps: 'crypto.subtle.deriveBits PBKDF2',
      runsOn: 'threadpool',
    },
    async kdf(password, salt, params, length) {
      const key = await crypto.subtle.importKey('raw', password, 'PBKDF2', false, ['deriveBits'])
      const bits = await crypto.subtle.deriveBits(
        { name: 'PBKDF2', hash: 'SHA-256', salt, iterations: params.iterations as number },
        key,
        length * 8,
      )
      return new Uint8Array(bits)
    },
  })
}

/** Ready with the OWASP 600,000 iterations: `await hasher.hash(password)`, `await hasher.verify(stored, password)`. */
export const hasher: KdfHasher = createHasher()
