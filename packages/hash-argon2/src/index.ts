import {
  ARGON2ID_FORMAT,
  defineKdfHasher,
  type KdfHasher,
  type KdfHasherOptions,
  OWASP_DEFAULT_PARAMS,
} from '@authlab/core'
import { hashRaw } from '@node-rs/argon2'

export interface Argon2Options extends KdfHasherOptions {
  /** Memory in KiB (default 19456 = 19 MiB, the OWASP Password Storage Cheat Sheet's argon2id setting). */
  m?: number
  /** Passes over memory (default 2, OWASP). */
  t?: number
  /** Lanes (default 1, OWASP). Part of the hash: changing it changes the output. */
  p?: number
}

// `Algorithm.Argon2id` is an ambient const enum, which isolatedModules cannot inline; RFC 9106 §3.1: y = 2.
const ARGON2ID = 2

/**
 * argon2id (RFC 9106) through `@node-rs/argon2` (the Rust `argon2` crate via napi-rs), chosen over the
 * `argon2` package because it hashed 1.9× faster at the OWASP parameters on this machine
 * (bench/compare-bindings.mjs, results in bench/results/binding-choice.json). Its async calls run on the
 * libuv threadpool. The raw tag is taken and the PHC string written here, in the reference order
 * `m=,t=,p=` (the `argon2` package writes `m=,p=,t=`; both parse everywhere).
 */
const { m: M, t: T, p: P } = OWASP_DEFAULT_PARAMS.argon2id

export function createHasher({ m = M, t = T, p = P, ...options }: Argon2Options = {}): KdfHasher {
  return defineKdfHasher({
    ...options,
    format: ARGON2ID_FORMAT,
    params: { m, t, p },
    describe: {
      name: '@authlab/hash-argon2',
      displayName: 'argon2id (Rust)',
      wraps: '@node-rs/argon2@2 (napi-rs)',
      runsOn: 'threadpool',
    },
    kdf: (password, salt, params, length) =>
      hashRaw(password, {
        algorithm: ARGON2ID,
        memoryCost: params.m,
        timeCost: params.t,
        parallelism: params.p,
        outputLen: length,
        salt,
      }),
  })
}

/** argon2id with the OWASP parameters m=19456 KiB, t=2, p=1: `await hasher.hash(password)`. */
export const hasher: KdfHasher = createHasher()
