import { hasherSuite } from '@authlab/conformance'
import { createHasher as nativeBcrypt } from '@authlab/hash-bcrypt'
import { createHasher as rustBcrypt } from '@authlab/hash-node-rs-bcrypt'
import { test } from 'vitest'
import { createHasher } from '../src/index.js'

hasherSuite({
  test,
  factory: createHasher,
  // Pure JS: cost 12 takes ≥ 0.15 s even on a fast core, all of it on the event loop.
  blockingParams: { cost: 12 },
  peers: [nativeBcrypt({ cost: 4 }), rustBcrypt({ cost: 4 })],
})
