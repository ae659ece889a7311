// The conformance suite on a Node that has crypto.argon2, under node:test: run by
// conformance.test.ts with the Node 24 that tools/runtimes installs from the registry, so the
// package's own suite runs where the package runs even while the repository's tests run on Node 20.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { hasherSuite } from '@authlab/conformance'
import { ARGON2ID } from '@authlab/core'
import { createHasher as nativeArgon2 } from '@authlab/hash-argon2'
import { createHasher, hasher } from '../dist/esm/index.js'

hasherSuite({
  test: (name, fn, timeout) => test(name, { timeout }, fn),
  factory: createHasher,
  // 64 MiB × 10 passes: ≥ 0.15 s on the threadpool, while the event loop must stay free.
  blockingParams: { m: 65536, t: 10, p: 1 },
  // The native strategy of the same algorithm (@node-rs/argon2): each verifies the other's PHC strings.
  peers: [nativeArgon2(ARGON2ID.testParams.cheap)],
})

test('the ready-made hasher describes itself as createHasher() does, and works', async () => {
  assert.deepEqual(
    { ...hasher.info, params: { ...hasher.info.params } },
    {
      ...createHasher().info,
      params: { ...createHasher().info.params },
    },
  )
  assert.equal(await hasher.verify(await hasher.hash('correct horse'), 'correct horse'), true)
})
