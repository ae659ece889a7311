import { hasherSuite, SCRYPT_KDF_VECTORS, SCRYPT_VECTORS } from '@authlab/conformance'
import { test } from 'vitest'
import { createHasher } from '../src/index.js'

// Cheap costs keep the functional checks fast; the runs-on check uses the OWASP defaults (N=2^17).
// Cross-verification with the other implementation of this format runs in its package's test
// (one direction suffices: that check hashes and verifies both ways).
hasherSuite({
  test,
  factory: (params) => createHasher(params),
  cheapParams: { ln: 10, r: 8, p: 1 },
  strongerParams: { ln: 11, r: 8, p: 2 },
  vectors: SCRYPT_VECTORS,
  kdfVectors: SCRYPT_KDF_VECTORS,
})
