import type { PasswordHasher } from '@authlab/core'
import { expect, test } from 'vitest'
import { measureLag } from '../src/suites/lag/measure.js'

/** A hasher whose one hash holds the main thread (busy), like argon2Sync at 64 MiB. */
const blocking: PasswordHasher = {
  info: {
    name: 'blocking',
    displayName: 'blocking',
    wraps: 'a busy loop',
    algorithm: 'test',
    runsOn: 'main-thread',
    params: {},
  },
  hash: async () => {
    const until = performance.now() + 60
    while (performance.now() < until);
    return 'x'
  },
  verify: async () => true,
  needsRehash: () => false,
}

test('a round of one hash that holds the loop records a delay, not none', async () => {
  const figures = await measureLag(blocking, { minHashes: 1, timeMs: 0 })
  expect(figures.hashes).toBe(1)
  // No wall-clock bound: only that the block was seen at all (the histogram's first run sets its start).
  expect(figures.maxDelayMs).toBeGreaterThan(0)
  // The overdue tick after the hash counts: a loop-free share of 0 would give no ratio at all.
  expect(figures.ticksPerHash).toBeGreaterThan(0)
  // And few ticks: a loop left free for the 60 ms hash would count about 60.
  expect(figures.ticksPerHash).toBeLessThanOrEqual(10)
})
