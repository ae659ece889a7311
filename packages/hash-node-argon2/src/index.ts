import { ARGON2ID, type Argon2idOptions, defineKdfHasher, type KdfHasher } from '@authlab/core'
import argon2 from 'argon2'

// Apps branch on these errors' codes; re-exported so a login route needs only this package.
export * from '@authlab/core/errors'

export type { Argon2idOptions as NodeArgon2Options }

/**
 * node-argon2's own defaults (argon2.cjs `defaults`: memoryCost 65536 KiB, timeCost 3, parallelism 4),
 * for callers who want what `argon2.hash(password)` does; `createHasher()` itself uses OWASP's.
 */
export const NODE_ARGON2_DEFAULTS = Object.freeze({ m: 65536, t: 3, p: 4 })

/**
 * argon2id (RFC 9106) through the `argon2` package (node-argon2: the reference C implementation via
 * Node-API, prebuilt binaries inside the package, so no install script is needed). Each hash is one
 * Napi::AsyncWorker on the libuv threadpool; with p > 1 that pool thread starts p more OS threads per
 * segment (see the README), which the threadpool size does not bound. The raw tag is taken and the PHC
 * string written by core, so hashes interoperate with @authlab/hash-argon2 and the `argon2` package's own.
 */
export function createHasher(options?: Argon2idOptions): KdfHasher {
  return defineKdfHasher({
    algorithm: ARGON2ID,
    describe: {
      name: '@authlab/hash-node-argon2',
      displayName: 'argon2id (node-argon2, C)',
      wraps: 'argon2@0.44 (node-argon2, Node-API)',
      runsOn: 'threadpool',
    },
    kdf: async (password, salt, params, length) =>
      new Uint8Array(
        await argon2.hash(Buffer.from(password), {
          raw: true,
          type: argon2.argon2id,
          memoryCost: params.m as number,
          timeCost: params.t as number,
          parallelism: params.p as number,
          hashLength: length,
          salt: Buffer.from(salt),
        }),
      ),
    options,
  })
}

/** argon2id with the OWASP parameters m=19456 KiB, t=2, p=1: `await hasher.hash(password)`. */
export const hasher: KdfHasher = createHasher()
