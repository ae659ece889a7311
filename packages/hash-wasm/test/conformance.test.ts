import { hasherSuite } from '@authlab/conformance'
import { createHasher as nativeArgon2 } from '@authlab/hash-argon2'
import { createHasher as nativeBcrypt } from '@authlab/hash-bcrypt'
import { createHasher as jsBcrypt } from '@authlab/hash-bcryptjs'
import { createHasher as rustBcrypt } from '@authlab/hash-node-rs-bcrypt'
import { createHasher as nativeScrypt } from '@authlab/hash-scrypt'
import { createHasher as jsScrypt } from '@authlab/hash-scrypt-js'
import { test } from 'vitest'
import { createHasher } from '../src/index.js'

// One suite per algorithm: each must be indistinguishable from the native strategy of that format.
// Parameters, vectors, policy and hostile cases come from each algorithm's profile in core.
hasherSuite({
  test,
  name: '@authlab/hash-wasm (argon2id)',
  factory: (params) => createHasher({ algorithm: 'argon2id', ...params }),
  // WebAssembly on the event loop: 64 MiB × 4 passes takes well over 0.15 s.
  blockingParams: { m: 65536, t: 4, p: 1 },
  peers: [nativeArgon2({ m: 256, t: 2, p: 1 })],
})

hasherSuite({
  test,
  name: '@authlab/hash-wasm (scrypt)',
  factory: (params) => createHasher({ algorithm: 'scrypt', ...params }),
  peers: [nativeScrypt({ ln: 10, r: 8, p: 1 }), jsScrypt({ ln: 10, r: 8, p: 1 })],
})

hasherSuite({
  test,
  name: '@authlab/hash-wasm (bcrypt)',
  factory: (params) => createHasher({ algorithm: 'bcrypt', ...params }),
  blockingParams: { cost: 13 },
  peers: [nativeBcrypt({ cost: 4 }), rustBcrypt({ cost: 4 }), jsBcrypt({ cost: 4 })],
})
