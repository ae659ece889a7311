import { hasherSuite } from '@authlab/conformance'
import { ARGON2ID, type PasswordHasher } from '@authlab/core'
import argon2 from 'argon2'
import { test } from 'vitest'
import { createHasher } from '../src/index.js'

const cheapParams = ARGON2ID.testParams.cheap

/**
 * The other native binding (node-argon2, which the bench's hash suite times against this one) as a
 * peer: it writes `m=,p=,t=` and must verify our `m=,t=,p=` strings, and the other way round.
 */
const nodeArgon2: PasswordHasher = {
  info: {
    name: 'argon2',
    displayName: 'argon2id (node-argon2)',
    wraps: 'argon2@0.44',
    algorithm: 'argon2id',
    runsOn: 'threadpool',
    params: cheapParams,
  },
  hash: (password) =>
    argon2.hash(typeof password === 'string' ? password : Buffer.from(password), {
      type: argon2.argon2id,
      memoryCost: cheapParams.m as number,
      timeCost: cheapParams.t as number,
      parallelism: cheapParams.p as number,
    }),
  verify: (encoded, password) =>
    argon2.verify(encoded, typeof password === 'string' ? password : Buffer.from(password)),
  needsRehash: (encoded) =>
    argon2.needsRehash(encoded, { memoryCost: cheapParams.m as number, timeCost: cheapParams.t as number }),
}

hasherSuite({
  test,
  factory: createHasher,
  // 64 MiB × 10 passes: ≥ 0.15 s on the threadpool, while the event loop must stay free.
  blockingParams: { m: 65536, t: 10, p: 1 },
  peers: [nodeArgon2],
})
