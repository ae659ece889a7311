import { hasherSuite, PBKDF2_SHA256_KDF_VECTORS, PBKDF2_SHA256_VECTORS } from '@authlab/conformance'
import { test } from 'vitest'
import { createHasher } from '../src/index.js'

// Cheap costs keep the functional checks fast; the runs-on check uses the OWASP 600,000 iterations.
// Cross-verification with the other implementation of this format runs in its package's test
// (one direction suffices: that check hashes and verifies both ways).
hasherSuite({
  test,
  factory: (params) => createHasher(params),
  cheapParams: { iterations: 1000 },
  strongerParams: { iterations: 2000 },
  vectors: PBKDF2_SHA256_VECTORS,
  kdfVectors: PBKDF2_SHA256_KDF_VECTORS,
})
