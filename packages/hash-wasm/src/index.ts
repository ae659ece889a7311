import {
  ARGON2ID_FORMAT,
  type BcryptOptions,
  createBcryptHasher,
  defineKdfHasher,
  InvalidOptionError,
  type KdfHasher,
  type KdfHasherOptions,
  OWASP_DEFAULT_PARAMS,
  type PasswordHasher,
  type PasswordHasherInfo,
  SCRYPT_FORMAT,
} from '@authlab/core'
import { argon2id, bcrypt, scrypt } from 'hash-wasm'

export interface WasmArgon2Options extends KdfHasherOptions {
  algorithm?: 'argon2id'
  /** Memory in KiB (default 19456, OWASP). */
  m?: number
  /** Passes (default 2, OWASP). */
  t?: number
  /** Lanes (default 1, OWASP); WebAssembly computes them one after another on the calling thread. */
  p?: number
}

export interface WasmScryptOptions extends KdfHasherOptions {
  algorithm: 'scrypt'
  /** log2 N (default 17, OWASP: N = 2^17). */
  ln?: number
  /** Block size (default 8, OWASP). */
  r?: number
  /** Parallelization (default 1, OWASP). */
  p?: number
}

export interface WasmBcryptOptions extends BcryptOptions {
  algorithm: 'bcrypt'
}

export type WasmHasherOptions = WasmArgon2Options | WasmScryptOptions | WasmBcryptOptions

const { argon2id: ARGON2ID, scrypt: SCRYPT } = OWASP_DEFAULT_PARAMS

// hash-wasm compiles each algorithm to WebAssembly and runs it synchronously inside its async
// functions: the whole hash blocks the event loop, exactly like pure JS, only faster.
const describe = (
  algorithm: string,
): Pick<PasswordHasherInfo, 'name' | 'displayName' | 'wraps' | 'runsOn'> => ({
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
export function createHasher(options: WasmHasherOptions = {}): PasswordHasher {
  switch (options.algorithm) {
    case undefined:
    case 'argon2id': {
      const { algorithm: _, m, t, p, ...rest } = options
      return defineKdfHasher({
        ...rest,
        format: ARGON2ID_FORMAT,
        params: { m: m ?? ARGON2ID.m, t: t ?? ARGON2ID.t, p: p ?? ARGON2ID.p },
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
      })
    }
    case 'scrypt': {
      const { algorithm: _, ln, r, p, ...rest } = options
      return defineKdfHasher({
        ...rest,
        format: SCRYPT_FORMAT,
        params: { ln: ln ?? SCRYPT.ln, r: r ?? SCRYPT.r, p: p ?? SCRYPT.p },
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
      })
    }
    case 'bcrypt': {
      const { algorithm: _, ...rest } = options
      // hash-wasm writes `$2a$`; the shared builder re-encodes the checksum as `$2b$`.
      return createBcryptHasher(
        describe('bcrypt'),
        (password, costFactor, salt) => bcrypt({ password, salt, costFactor, outputType: 'encoded' }),
        rest,
      )
    }
    default:
      throw new InvalidOptionError(
        `algorithm must be "argon2id", "scrypt" or "bcrypt", got ${JSON.stringify((options as { algorithm: unknown }).algorithm)}`,
      )
  }
}

/** argon2id with the OWASP parameters, in WebAssembly on the calling thread. */
export const hasher: KdfHasher = createHasher()
