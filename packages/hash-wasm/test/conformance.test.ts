import {
  ARGON2ID_VECTORS,
  BCRYPT_VECTORS,
  hasherSuite,
  SCRYPT_KDF_VECTORS,
  SCRYPT_VECTORS,
} from '@authlab/conformance'
import { BCRYPT_PASSWORD_POLICY } from '@authlab/core'
import { createHasher as nativeArgon2 } from '@authlab/hash-argon2'
import { createHasher as nativeBcrypt } from '@authlab/hash-bcrypt'
import { createHasher as jsBcrypt } from '@authlab/hash-bcryptjs'
import { createHasher as rustBcrypt } from '@authlab/hash-node-rs-bcrypt'
import { createHasher as nativeScrypt } from '@authlab/hash-scrypt'
import { createHasher as jsScrypt } from '@authlab/hash-scrypt-js'
import { test } from 'vitest'
import { createHasher } from '../src/index.js'

// One suite per algorithm: each must be indistinguishable from the native strategy of that format.
hasherSuite({
  test,
  name: '@authlab/hash-wasm (argon2id)',
  factory: (params) => createHasher({ algorithm: 'argon2id', ...params }),
  cheapParams: { m: 256, t: 2, p: 1 },
  strongerParams: { m: 512, t: 3, p: 1 },
  // WebAssembly on the event loop: 64 MiB × 4 passes takes well over 0.15 s.
  blockingParams: { m: 65536, t: 4, p: 1 },
  vectors: ARGON2ID_VECTORS,
  peers: [nativeArgon2({ m: 256, t: 2, p: 1 })],
})

hasherSuite({
  test,
  name: '@authlab/hash-wasm (scrypt)',
  factory: (params) => createHasher({ algorithm: 'scrypt', ...params }),
  cheapParams: { ln: 10, r: 8, p: 1 },
  strongerParams: { ln: 11, r: 8, p: 2 },
  vectors: SCRYPT_VECTORS,
  kdfVectors: SCRYPT_KDF_VECTORS,
  peers: [nativeScrypt({ ln: 10, r: 8, p: 1 }), jsScrypt({ ln: 10, r: 8, p: 1 })],
})

hasherSuite({
  test,
  name: '@authlab/hash-wasm (bcrypt)',
  factory: (params) => createHasher({ algorithm: 'bcrypt', ...params }),
  cheapParams: { cost: 4 },
  strongerParams: { cost: 5 },
  blockingParams: { cost: 13 },
  vectors: BCRYPT_VECTORS,
  passwordPolicy: BCRYPT_PASSWORD_POLICY,
  peers: [nativeBcrypt({ cost: 4 }), rustBcrypt({ cost: 4 }), jsBcrypt({ cost: 4 })],
})
