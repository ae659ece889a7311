import { hasherSuite } from '@authlab/conformance'
import { ARGON2ID } from '@authlab/core'
import { createHasher as nativeArgon2 } from '@authlab/hash-argon2'
import argon2 from 'argon2'
import { expect, test } from 'vitest'
import { createHasher, NODE_ARGON2_DEFAULTS } from '../src/index.js'

hasherSuite({
  test,
  factory: createHasher,
  // 64 MiB × 10 passes: ≥ 0.15 s on the threadpool, while the event loop must stay free.
  blockingParams: { m: 65536, t: 10, p: 1 },
  // The native strategy of the same algorithm (@node-rs/argon2): each verifies the other's PHC strings.
  peers: [nativeArgon2(ARGON2ID.testParams.cheap)],
})

test("the argon2 package's own strings verify, in either parameter order, and ours verify in it", async () => {
  const params = { memoryCost: 256, timeCost: 2, parallelism: 2 }
  const theirs = await argon2.hash('hunter2hunter2', { type: argon2.argon2id, ...params })
  const ours = createHasher({ m: 256, t: 2, p: 2 })
  expect(theirs).toMatch(/^\$argon2id\$v=19\$m=256,t=2,p=2\$/)
  // argon2 0.45 writes the same hash with its parameters as m=,p=,t= (the order is not part of the
  // hash): such strings are in users' tables and must keep verifying.
  const asWrittenBy045 = theirs.replace('m=256,t=2,p=2', 'm=256,p=2,t=2')
  for (const stored of [theirs, asWrittenBy045]) {
    expect(await ours.verify(stored, 'hunter2hunter2')).toBe(true)
    expect(await ours.verify(stored, 'hunter2hunter3')).toBe(false)
  }
  expect(await argon2.verify(await ours.hash('hunter2hunter2'), 'hunter2hunter2')).toBe(true)
})

test("NODE_ARGON2_DEFAULTS are the argon2 package's own defaults", async () => {
  const encoded = await argon2.hash('x-password')
  const { m, t, p } = NODE_ARGON2_DEFAULTS
  expect(encoded).toMatch(new RegExp(`^\\$argon2id\\$v=19\\$m=${m},t=${t},p=${p}\\$`))
})
