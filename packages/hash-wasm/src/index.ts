import {
  ARGON2ID,
  type Argon2idOptions,
  type BcryptOptions,
  defineBcryptHasher,
  defineKdfHasher,
  type HasherDescription,
  type KdfHasher,
  type OptionSpecs,
  type PasswordHasher,
  SCRYPT,
  type ScryptOptions,
} from '@authlab/core'
import { argon2id, bcrypt, scrypt } from 'hash-wasm'

// Apps branch on these errors' codes; re-exported so a login route needs only this package.
export * from '@authlab/core/errors'

export interface WasmArgon2Options extends Argon2idOptions {
  algorithm?: 'argon2id'
}

export interface WasmScryptOptions extends ScryptOptions {
  algorithm: 'scrypt'
}

export interface WasmBcryptOptions extends BcryptOptions {
  algorithm: 'bcrypt'
}

export type WasmHasherOptions = WasmArgon2Options | WasmScryptOptions | WasmBcryptOptions

/** The algorithms this package implements, `algorithm` option values (the first is the default). */
export const ALGORITHMS = ['argon2id', 'scrypt', 'bcrypt'] as const

// The one key this package reads itself; the definers check it with the algorithm's own keys, so a
// typo in either is reported with every valid key.
const ALGORITHM_OPTION: OptionSpecs = { algorithm: { type: 'string', values: ALGORITHMS } }

// hash-wasm compiles each algorithm to WebAssembly and runs it synchronously inside its async
// functions: the whole hash blocks the event loop, exactly like pure JS, only faster.
const describe = (algorithm: string): HasherDescription => ({
  name: '@authlab/hash-wasm',
  displayName: `${algorithm} (WASM)`,
  wraps: 'hash-wasm@4 (WebAssembly)',
  runsOn: 'main-thread',
})

/**
 * argon2id (default), scrypt or bcrypt through `hash-wasm`, chosen by `algorithm`. The encoded forms
 * are the shared ones from @authlab/core, so the hashes verify in @authlab/hash-argon2,
 * @authlab/hash-scrypt and the bcrypt packages and the other way round.
 */
export function createHasher(options?: WasmArgon2Options | WasmScryptOptions): KdfHasher
export function createHasher(options: WasmBcryptOptions): PasswordHasher
export function createHasher(options?: WasmHasherOptions): PasswordHasher {
  // A non-object (null, a string) has no algorithm: the argon2id definer reports it as a typed error.
  const algorithm = typeof options === 'object' ? options?.algorithm : undefined
  switch (algorithm) {
    case 'scrypt':
      return defineKdfHasher({
        algorithm: SCRYPT,
        describe: describe('scrypt'),
        kdf: (password, salt, params, hashLength) =>
          scrypt({
            password,
            salt,
            costFactor: 2 ** (params.ln as number),
            blockSize: params.r as number,
            parallelism: params.p as number,
            hashLength,
            outputType: 'binary',
          }),
        options,
        strategyOptions: ALGORITHM_OPTION,
      })
    case 'bcrypt':
      // hash-wasm writes `$2a$`; the shared builder re-encodes the checksum as `$2b$`.
      return defineBcryptHasher({
        describe: describe('bcrypt'),
        engine: (password, costFactor, salt) => bcrypt({ password, salt, costFactor, outputType: 'encoded' }),
        options,
        strategyOptions: ALGORITHM_OPTION,
      })
    default:
      return defineKdfHasher({
        algorithm: ARGON2ID,
        describe: describe('argon2id'),
        kdf: (password, salt, params, hashLength) =>
          argon2id({
            password,
            salt,
            memorySize: params.m as number,
            iterations: params.t as number,
            parallelism: params.p as number,
            hashLength,
            outputType: 'binary',
          }),
        options,
        strategyOptions: ALGORITHM_OPTION,
      })
  }
}

/** argon2id with the OWASP parameters, in WebAssembly on the calling thread. */
export const hasher: KdfHasher = createHasher()
