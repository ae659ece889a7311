import { hasherSuite, PBKDF2_SHA256_KDF_VECTORS, PBKDF2_SHA256_VECTORS } from '@authlab/conformance'
import { createHasher as createNodePbkdf2Hasher } from '@authlab/hash-pbkdf2'
import { test } from 'vitest'
import { createHasher } from '../src/index.js'

// Cheap costs keep the functional checks fast. The runs-on check needs a hash of ≥ 150 ms to judge:
// OWASP's 600,000 iterations take only 120-200 ms here, so it runs at 2,000,000 (~3× that margin).
hasherSuite({
  test,
  factory: (params) => createHasher(params),
  cheapParams: { iterations: 1000 },
  strongerParams: { iterations: 2000 },
  blockingParams: { iterations: 2_000_000 },
  vectors: PBKDF2_SHA256_VECTORS,
  kdfVectors: PBKDF2_SHA256_KDF_VECTORS,
  peers: [createNodePbkdf2Hasher({ iterations: 1000 })],
})
