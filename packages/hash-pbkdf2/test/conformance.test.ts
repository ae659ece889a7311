import { hasherSuite, PBKDF2_SHA256_KDF_VECTORS, PBKDF2_SHA256_VECTORS } from '@authlab/conformance'
import { test } from 'vitest'
import { createHasher } from '../src/index.js'

// Cheap costs keep the functional checks fast. The runs-on check needs a hash of ≥ 150 ms to judge:
// OWASP's 600,000 iterations take only 120-200 ms here, so it runs at 2,000,000 (~3× that margin).
// Cross-verification with the other implementation of this format runs in its package's test
// (one direction suffices: that check hashes and verifies both ways).
hasherSuite({
  test,
  factory: (params) => createHasher(params),
  cheapParams: { iterations: 1000 },
  strongerParams: { iterations: 2000 },
  blockingParams: { iterations: 2_000_000 },
  vectors: PBKDF2_SHA256_VECTORS,
  kdfVectors: PBKDF2_SHA256_KDF_VECTORS,
})
