import {
  ARGON2ID,
  type Argon2idOptions,
  type BcryptOptions,
  defineBcryptHasher,
  defineKdfHasher,
  type HasherDescription,
  InvalidOptionError,
  type KdfHasher,
  type KdfParams,
  type OptionSpecs,
  type PasswordHasher,
  SCRYPT,
  type ScryptOptions,
  UnsupportedRuntimeError,
} from '@authlab/core'
import { argon2id, bcrypt, scrypt } from 'hash-wasm'
import { type Argon2id, argon2idFromModule, wasmApi } from './argon2.js'

// Apps branch on these errors' codes; re-exported so a login route needs only this package.
export * from '@authlab/core/errors'

export interface WasmArgon2Options extends Argon2idOptions {
  algorithm?: 'argon2id'
  /**
   * The package's `argon2.wasm` as a compiled `WebAssembly.Module`: argon2id then runs from it (src/argon2.ts)
   * instead of from hash-wasm, which compiles WebAssembly from bytes at run time, something Cloudflare
   * Workers and workerd refuse. In a Worker: `import argon2Wasm from '@authlab/hash-wasm/argon2.wasm'`.
   */
  module?: object
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

// The keys this package reads itself; the definers check them with the algorithm's own keys, so a
// typo in either is reported with every valid key. Only argon2id has a precompiled module.
const ALGORITHM_OPTION: OptionSpecs = { algorithm: { type: 'string', values: ALGORITHMS } }
const ARGON2_OPTIONS: OptionSpecs = { ...ALGORITHM_OPTION, module: { type: 'object' } }

// hash-wasm compiles each algorithm to WebAssembly and runs it synchronously inside its async
// functions: the whole hash blocks the event loop, exactly like pure JS, only faster. So does the
// precompiled argon2id.
const describe = (algorithm: string, wraps = 'hash-wasm@4 (WebAssembly)'): HasherDescription => ({
  name: '@authlab/hash-wasm',
  displayName: `${algorithm} (WASM)`,
  wraps,
  runsOn: 'main-thread',
})
const PRECOMPILED = 'argon2.wasm (RFC 9106 G in WebAssembly, precompiled module) + @noble/hashes BLAKE2b'

/**
 * hash-wasm's call, with a runtime's refusal to compile WebAssembly at run time (workerd: "Wasm code
 * generation disallowed by embedder"; a page whose CSP lacks 'wasm-unsafe-eval') as the typed error
 * that says what runs there instead. hash-wasm's embedded modules are valid, so a CompileError from
 * them is the runtime's refusal, never bad bytes.
 */
async function compiled<T>(algorithm: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (!(error instanceof wasmApi.CompileError)) throw error
    const instead =
      algorithm === 'argon2id'
        ? "pass { module } (import argon2Wasm from '@authlab/hash-wasm/argon2.wasm'): argon2id then runs from the precompiled module"
        : 'argon2id runs here from the precompiled module ({ module }); scrypt and bcrypt have none'
    throw new UnsupportedRuntimeError(
      `@authlab/hash-wasm: this runtime refuses to compile WebAssembly at run time (${error.message}), which hash-wasm's ${algorithm} needs; ${instead}`,
      { cause: error },
      'WebAssembly compilation at run time, or a precompiled module',
    )
  }
}

/** argon2id from the precompiled module, instantiated on first use (WebAssembly.instantiate is async). */
function precompiledArgon2(module: unknown) {
  if (!(module instanceof wasmApi.Module))
    throw new InvalidOptionError(
      '@authlab/hash-wasm: option "module" must be a WebAssembly.Module (the package\'s argon2.wasm, compiled)',
    )
  let ready: Promise<Argon2id> | undefined
  return async (password: Uint8Array, salt: Uint8Array, params: KdfParams, tagLength: number) => {
    ready ??= argon2idFromModule(module)
    const run = await ready
    return run({
      password,
      salt,
      m: params.m as number,
      t: params.t as number,
      p: params.p as number,
      tagLength,
    })
  }
}

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
          compiled('scrypt', () =>
            scrypt({
              password,
              salt,
              costFactor: 2 ** (params.ln as number),
              blockSize: params.r as number,
              parallelism: params.p as number,
              hashLength,
              outputType: 'binary',
            }),
          ),
        options,
        strategyOptions: ALGORITHM_OPTION,
      })
    case 'bcrypt':
      // hash-wasm writes `$2a$`; the shared builder re-encodes the checksum as `$2b$`.
      return defineBcryptHasher({
        describe: describe('bcrypt'),
        engine: (password, costFactor, salt) =>
          compiled('bcrypt', () => bcrypt({ password, salt, costFactor, outputType: 'encoded' })),
        options,
        strategyOptions: ALGORITHM_OPTION,
      })
    default: {
      const module = typeof options === 'object' ? (options as WasmArgon2Options | null)?.module : undefined
      return defineKdfHasher({
        algorithm: ARGON2ID,
        describe: module === undefined ? describe('argon2id') : describe('argon2id', PRECOMPILED),
        kdf:
          module === undefined
            ? (password, salt, params, hashLength) =>
                compiled('argon2id', () =>
                  argon2id({
                    password,
                    salt,
                    memorySize: params.m as number,
                    iterations: params.t as number,
                    parallelism: params.p as number,
                    hashLength,
                    outputType: 'binary',
                  }),
                )
            : precompiledArgon2(module),
        options,
        strategyOptions: ARGON2_OPTIONS,
      })
    }
  }
}

/** argon2id with the OWASP parameters, in WebAssembly on the calling thread. */
export const hasher: KdfHasher = createHasher()
