import { hasherSuite, SCRYPT_KDF_VECTORS, SCRYPT_VECTORS } from '@authlab/conformance'
import { createHasher as createNodeScryptHasher } from '@authlab/hash-scrypt'
import { test } from 'vitest'
import { createHasher } from '../src/index.js'

// Pure JS is ~3-5x slower than node:crypto: N=2^14 already keeps the loop busy well past 150 ms.
hasherSuite({
  test,
  factory: (params) => createHasher(params),
  cheapParams: { ln: 10, r: 8, p: 1 },
  strongerParams: { ln: 11, r: 8, p: 2 },
  blockingParams: { ln: 14, r: 8, p: 1 },
  vectors: SCRYPT_VECTORS,
  kdfVectors: SCRYPT_KDF_VECTORS,
  peers: [createNodeScryptHasher({ ln: 10, r: 8, p: 1 })],
})
