import { pbkdf2 } from 'node:crypto'
import { promisify } from 'node:util'
import { defineKdfHasher, type KdfHasher, PBKDF2_SHA256, type Pbkdf2Options } from '@authlab/core'

// Apps branch on these errors' codes; re-exported so a login route needs only this package.
export * from '@authlab/core/errors'

export type { Pbkdf2Options }

const pbkdf2Async = promisify(pbkdf2)

/**
 * PBKDF2-HMAC-SHA256 (RFC 8018 §5.2) through node:crypto, whose async form runs on the libuv
 * threadpool. Writes `$pbkdf2-sha256$i=600000$<salt>$<hash>` (standard base64, PHC); also verifies
 * passlib's `$pbkdf2-sha256$<rounds>$<ab64 salt>$<ab64 hash>`, so users migrated from a Python stack
 * keep their passwords — `needsRehash` then says when to rewrite them in the PHC form's cost.
 */
export function createHasher(options?: Pbkdf2Options): KdfHasher {
  return defineKdfHasher({
    algorithm: PBKDF2_SHA256,
    describe: {
      name: '@authlab/hash-pbkdf2',
      displayName: 'PBKDF2-SHA256 (node:crypto)',
      wraps: 'node:crypto pbkdf2 (OpenSSL)',
      runsOn: 'threadpool',
    },
    kdf: async (password, salt, params, length) =>
      new Uint8Array(await pbkdf2Async(password, salt, params.iterations as number, length, 'sha256')),
    options,
  })
}

/** Ready with the OWASP 600,000 iterations: `await hasher.hash(password)`, `await hasher.verify(stored, password)`. */
export const hasher: KdfHasher = createHasher()
