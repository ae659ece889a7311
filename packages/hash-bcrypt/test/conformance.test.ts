import { BCRYPT_VECTORS, hasherSuite } from '@authlab/conformance'
import { BCRYPT_PASSWORD_POLICY } from '@authlab/core'
import { test } from 'vitest'
import { createHasher } from '../src/index.js'

// No peers here: the packages that depend on this one (hash-node-rs-bcrypt, hash-bcryptjs, hash-wasm)
// list it as their peer, and the cross-implementation check runs both directions of each pair.
hasherSuite({
  test,
  factory: (params) => createHasher(params),
  cheapParams: { cost: 4 },
  strongerParams: { cost: 5 },
  // Cost 13 takes ≥ 0.4 s natively, long enough to see whether the event loop stays free.
  blockingParams: { cost: 13 },
  vectors: BCRYPT_VECTORS,
  passwordPolicy: BCRYPT_PASSWORD_POLICY,
})
