import { BCRYPT_VECTORS, hasherSuite } from '@authlab/conformance'
import { BCRYPT_PASSWORD_POLICY } from '@authlab/core'
import { createHasher as nativeBcrypt } from '@authlab/hash-bcrypt'
import { test } from 'vitest'
import { createHasher } from '../src/index.js'

hasherSuite({
  test,
  factory: (params) => createHasher(params),
  cheapParams: { cost: 4 },
  strongerParams: { cost: 5 },
  blockingParams: { cost: 13 },
  vectors: BCRYPT_VECTORS,
  passwordPolicy: BCRYPT_PASSWORD_POLICY,
  peers: [nativeBcrypt({ cost: 4 })],
})
