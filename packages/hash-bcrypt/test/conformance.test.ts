import { hasherSuite } from '@authlab/conformance'
import { test } from 'vitest'
import { createHasher } from '../src/index.js'

// No peers here: the packages that depend on this one (hash-node-rs-bcrypt, hash-bcryptjs, hash-wasm)
// list it as their peer, and the cross-implementation check runs both directions of each pair.
// Cost 13 takes ≥ 0.4 s natively, long enough to see whether the event loop stays free.
hasherSuite({ test, factory: createHasher, blockingParams: { cost: 13 } })
