import { ARGON2ID, type Argon2idOptions, defineKdfHasher, type KdfHasher } from '@authlab/core'
import { hashRaw } from '@node-rs/argon2'

// Apps branch on these errors' codes; re-exported so a login route needs only this package.
export * from '@authlab/core/errors'

export type { Argon2idOptions as Argon2Options }

// `Algorithm.Argon2id` is an ambient const enum, which isolatedModules cannot inline; RFC 9106 §3.1: y = 2.
const ARGON2ID_TYPE = 2

/**
 * argon2id (RFC 9106) through `@node-rs/argon2` (the Rust `argon2` crate via napi-rs), chosen over the
 * `argon2` package because it hashes faster at the OWASP parameters (the bench's hash suite times both in
 * every run; figures in this package's README). Its async calls run on the
 * libuv threadpool. The raw tag is taken and the PHC string written here, in the reference order
 * `m=,t=,p=` (the `argon2` package writes `m=,p=,t=`; both parse everywhere).
 */
export function createHasher(options?: Argon2idOptions): KdfHasher {
  return defineKdfHasher({
    algorithm: ARGON2ID,
    describe: {
      name: '@authlab/hash-argon2',
      displayName: 'argon2id (Rust)',
      wraps: '@node-rs/argon2@2 (napi-rs)',
      runsOn: 'threadpool',
    },
    kdf: (password, salt, params, length) =>
      hashRaw(password, {
        algorithm: ARGON2ID_TYPE,
        memoryCost: params.m,
        timeCost: params.t,
        parallelism: params.p,
        outputLen: length,
        salt,
      }),
    options,
  })
}

/** argon2id with the OWASP parameters m=19456 KiB, t=2, p=1: `await hasher.hash(password)`. */
export const hasher: KdfHasher = createHasher()
