import { pbkdf2 } from 'node:crypto'
import { promisify } from 'node:util'
import {
  defineKdfHasher,
  type KdfHasher,
  type KdfHasherOptions,
  OWASP_DEFAULT_PARAMS,
  PBKDF2_SHA256_FORMAT,
} from '@authlab/core'

const pbkdf2Async = promisify(pbkdf2)

export interface Pbkdf2Options extends KdfHasherOptions {
  /** PBKDF2 iterations (default 600,000: OWASP Password Storage Cheat Sheet, PBKDF2-HMAC-SHA256). */
  iterations?: number
}

/**
 * PBKDF2-HMAC-SHA256 (RFC 8018 §5.2) through node:crypto, whose async form runs on the libuv
 * threadpool. Writes `$pbkdf2-sha256$i=600000$<salt>$<hash>` (standard base64, PHC); also verifies
 * passlib's `$pbkdf2-sha256$<rounds>$<ab64 salt>$<ab64 hash>`, so users migrated from a Python stack
 * keep their passwords — `needsRehash` then says when to rewrite them in the PHC form's cost.
 */
export function createHasher({
  iterations = OWASP_DEFAULT_PARAMS['pbkdf2-sha256'].iterations,
  ...options
}: Pbkdf2Options = {}): KdfHasher {
  return defineKdfHasher({
    ...options,
    format: PBKDF2_SHA256_FORMAT,
    params: { iterations },
    describe: {
      name: '@authlab/hash-pbkdf2',
      displayName: 'PBKDF2-SHA256 (node:crypto)',
      wraps: 'node:crypto pbkdf2 (OpenSSL)',
      runsOn: 'threadpool',
    },
    kdf: async (password, salt, params, length) =>
      new Uint8Array(await pbkdf2Async(password, salt, params.iterations as number, length, 'sha256')),
  })
}

/** Ready with the OWASP 600,000 iterations: `await hasher.hash(password)`, `await hasher.verify(stored, password)`. */
export const hasher: KdfHasher = createHasher()
