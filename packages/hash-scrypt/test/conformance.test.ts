import { hasherSuite } from '@authlab/conformance'
import { test } from 'vitest'
import { createHasher } from '../src/index.js'

// Parameters, vectors and hostile cases come from core's scrypt profile; the runs-on check uses the
// OWASP defaults (N=2^17). Cross-verification with the other implementations runs in their tests.
hasherSuite({ test, factory: createHasher })
