import { hasherSuite } from '@authlab/conformance'
import { createHasher as nodeScrypt } from '@authlab/hash-scrypt'
import { test } from 'vitest'
import { createHasher } from '../src/index.js'

hasherSuite({
  test,
  factory: createHasher,
  // The runs-on check needs one hash of ≥ 150 ms: N=2^15 took 189 ms on the 2-core CI box, too close;
  // 2^16 ≈ 0.4 s (the OWASP default N=2^17 would take seconds per run).
  blockingParams: { ln: 16, r: 8, p: 1 },
  peers: [nodeScrypt({ ln: 10, r: 8, p: 1 })],
})
