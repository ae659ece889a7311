import { hasherSuite } from '@authlab/conformance'
import { test } from 'vitest'
import { createHasher } from '../src/index.js'

// The runs-on check needs a hash of ≥ 150 ms to judge: OWASP's 600,000 iterations take only
// 120-200 ms here, so it runs at 2,000,000 (~3× that margin). Everything else comes from core's
// pbkdf2-sha256 profile; cross-verification with hash-webcrypto runs in its test.
hasherSuite({ test, factory: createHasher, blockingParams: { iterations: 2_000_000 } })
