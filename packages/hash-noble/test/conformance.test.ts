import { hasherSuite } from '@authlab/conformance'
import { createHasher as nativeScrypt } from '@authlab/hash-scrypt'
import { test } from 'vitest'
import { createHasher } from '../src/index.js'

hasherSuite({
  test,
  factory: createHasher,
  // The runs-on check needs one hash of ≥ 150 ms: pure-JS scrypt at N=2^15 takes several times that,
  // while the OWASP default N=2^17 would cost seconds per run.
  blockingParams: { ln: 15, r: 8, p: 1 },
  // The native strategy of the same algorithm: each verifies the other's `$scrypt$` strings.
  peers: [nativeScrypt({ ln: 10, r: 8, p: 1 })],
})
