import {
  ARGON2ID_VECTORS,
  BCRYPT_VECTORS,
  type CostParams,
  hasherSuite,
  SCRYPT_VECTORS,
} from '@authlab/conformance'
import { BCRYPT_PASSWORD_POLICY } from '@authlab/core'
import { createHasher as jsBcrypt } from '@authlab/hash-bcryptjs'
import { createHasher as jsScrypt } from '@authlab/hash-scrypt-js'
import { createHasher as wasm } from '@authlab/hash-wasm'
import { createHasher, type WorkerHasher } from '@authlab/hash-worker'
import { afterAll, test } from 'vitest'

// Every pool the suite creates is closed at the end, so no worker outlives the test file.
const pools: WorkerHasher[] = []
const onWorkers = (strategy: string, options: Record<string, unknown>) => {
  const hasher = createHasher({ strategy, options, threads: 1 })
  pools.push(hasher)
  return hasher
}
afterAll(() => Promise.all(pools.map((pool) => pool.close())))

hasherSuite({
  test,
  name: '@authlab/hash-worker (hash-bcryptjs)',
  factory: (params?: CostParams) => onWorkers('@authlab/hash-bcryptjs', { ...params }),
  cheapParams: { cost: 4 },
  strongerParams: { cost: 5 },
  // The same pure-JS work that blocks hash-bcryptjs's event loop must leave this one free.
  blockingParams: { cost: 12 },
  vectors: BCRYPT_VECTORS,
  passwordPolicy: BCRYPT_PASSWORD_POLICY,
  peers: [jsBcrypt({ cost: 4 })],
})

hasherSuite({
  test,
  name: '@authlab/hash-worker (hash-wasm argon2id)',
  factory: (params?: CostParams) => onWorkers('@authlab/hash-wasm', { algorithm: 'argon2id', ...params }),
  cheapParams: { m: 256, t: 2, p: 1 },
  strongerParams: { m: 512, t: 3, p: 1 },
  blockingParams: { m: 65536, t: 4, p: 1 },
  vectors: ARGON2ID_VECTORS,
  peers: [wasm({ algorithm: 'argon2id', m: 256, t: 2, p: 1 })],
})

hasherSuite({
  test,
  name: '@authlab/hash-worker (hash-scrypt-js)',
  factory: (params?: CostParams) => onWorkers('@authlab/hash-scrypt-js', { ...params }),
  cheapParams: { ln: 10, r: 8, p: 1 },
  strongerParams: { ln: 11, r: 8, p: 2 },
  // The check needs one hash of ≥ 150 ms: pure-JS scrypt took 123–132 ms at N=2^14 and 189 ms at 2^15 on the
  // 2-core CI box, so 2^16 (about 0.4 s) leaves a margin; on the workers the event loop must stay free.
  blockingParams: { ln: 16, r: 8, p: 1 },
  vectors: SCRYPT_VECTORS,
  peers: [jsScrypt({ ln: 10, r: 8, p: 1 })],
})
