import { hasherSuite, SCRYPT_KDF_VECTORS, SCRYPT_VECTORS } from '@authlab/conformance'
import { createHasher as createNodeScryptHasher } from '@authlab/hash-scrypt'
import { test } from 'vitest'
import { createHasher } from '../src/index.js'

// Pure JS is ~3-4× slower than node:crypto: N=2^15 keeps the loop busy ~400 ms, well past the 150 ms
// the runs-on check needs (the OWASP default N=2^17 would take seconds per run).
hasherSuite({
  test,
  factory: (params) => createHasher(params),
  cheapParams: { ln: 10, r: 8, p: 1 },
  strongerParams: { ln: 11, r: 8, p: 2 },
  // The runs-on check needs one hash of ≥ 150 ms: N=2^15 took 189 ms on the 2-core CI box, too close; 2^16 ≈ 0.4 s.
  blockingParams: { ln: 16, r: 8, p: 1 },
  vectors: SCRYPT_VECTORS,
  kdfVectors: SCRYPT_KDF_VECTORS,
  peers: [createNodeScryptHasher({ ln: 10, r: 8, p: 1 })],
})
