// What Workers bundlers resolve for this package (the "workerd" export condition, which wrangler and
// @cloudflare/vite-plugin set): the same API, with argon2id run from the shipped precompiled module,
// because workerd refuses to compile WebAssembly at run time. The bundler delivers the `.wasm` import
// as a WebAssembly.Module (wrangler's default CompiledWasm rule for **/*.wasm).

import type { KdfHasher, PasswordHasher } from '@authlab/core'
import argon2Wasm from '@authlab/hash-wasm/argon2.wasm'
import {
  createHasher as createAnywhere,
  type WasmArgon2Options,
  type WasmBcryptOptions,
  type WasmHasherOptions,
  type WasmScryptOptions,
} from './index.js'

export * from '@authlab/core/errors'
export {
  ALGORITHMS,
  type WasmArgon2Options,
  type WasmBcryptOptions,
  type WasmHasherOptions,
  type WasmScryptOptions,
} from './index.js'

/**
 * createHasher with argon2id from the precompiled module unless `module` says otherwise. scrypt and
 * bcrypt come from hash-wasm, as everywhere, and reject their first hash with UnsupportedRuntimeError
 * inside a Worker.
 */
export function createHasher(options?: WasmArgon2Options | WasmScryptOptions): KdfHasher
export function createHasher(options: WasmBcryptOptions): PasswordHasher
export function createHasher(options?: WasmHasherOptions): PasswordHasher {
  const argon2 =
    options === undefined ||
    (typeof options === 'object' && options !== null && (options.algorithm ?? 'argon2id') === 'argon2id')
  return createAnywhere((argon2 ? { module: argon2Wasm, ...options } : options) as WasmArgon2Options)
}

/** argon2id with the OWASP parameters, from the precompiled module. */
export const hasher: KdfHasher = createHasher()
