import { scrypt } from 'node:crypto'
import { defineKdfHasher, type KdfHasher, type KdfParams, SCRYPT, type ScryptOptions } from '@authlab/core'

// Apps branch on these errors' codes; re-exported so a login route needs only this package.
export * from '@authlab/core/errors'

export type { ScryptOptions }

/**
 * Node's scrypt refuses to allocate more than `maxmem` (32 MiB by default, less than OWASP's N=2^17,
 * r=8 needs), so each call allows exactly what RFC 7914 §5 scryptROMix uses — V: 128·N·r bytes, plus
 * B: 128·r·p — with 1 MiB of headroom. Callers cannot ask for more: the limits bound N, r and p first.
 */
function maxmemFor({ ln, r, p }: KdfParams): number {
  return 128 * (r as number) * (2 ** (ln as number) + (p as number)) + 2 ** 20
}

/** The raw KDF on node:crypto (OpenSSL's EVP_PBE_scrypt), run on the libuv threadpool. */
function nodeScrypt(
  password: Uint8Array,
  salt: Uint8Array,
  params: KdfParams,
  length: number,
): Promise<Uint8Array> {
  const options = {
    N: 2 ** (params.ln as number),
    r: params.r as number,
    p: params.p as number,
    maxmem: maxmemFor(params),
  }
  return new Promise((resolve, reject) => {
    scrypt(password, salt, length, options, (error, key) =>
      error ? reject(error) : resolve(new Uint8Array(key)),
    )
  })
}

/**
 * scrypt (RFC 7914) through node:crypto, stored as passlib's `$scrypt$ln=17,r=8,p=1$<salt>$<hash>`, so
 * hashes move both ways between this package, @authlab/hash-scrypt-js and passlib.
 */
export function createHasher(options?: ScryptOptions): KdfHasher {
  return defineKdfHasher({
    algorithm: SCRYPT,
    describe: {
      name: '@authlab/hash-scrypt',
      displayName: 'scrypt (node:crypto)',
      wraps: 'node:crypto scrypt (OpenSSL)',
      runsOn: 'threadpool',
    },
    kdf: nodeScrypt,
    options,
  })
}

/** Ready with the OWASP parameters N=2^17, r=8, p=1: `await hasher.hash(password)`. */
export const hasher: KdfHasher = createHasher()
