import { describe, expect, test } from 'vitest'
import { type CrossProcessRaceReport, runCrossProcessRace } from '../../src/index.js'
import { startClusterForTests } from '../cluster.js'

// Its own file, beside cluster.test.ts, so the two Vitest workers run both at once: each is mostly
// waiting on server processes and the cluster.
const startError = await startClusterForTests()
const HASHER = '@authlab/hash-bcryptjs'

describe('Redis Cluster', () => {
  test('the cluster is up', () => {
    if (startError) expect.fail(startError.message)
  })

  describe('logout across 4 server processes (express, fastify, express, fastify)', () => {
    let unguarded: CrossProcessRaceReport[] = []
    let guarded: CrossProcessRaceReport[] = []
    test('the races run', async () => {
      // Fewer trials without the guard: they only show the race is real (scripts/cluster-faults.mjs runs 20).
      unguarded = await runCrossProcessRace({ hasherModule: HASHER, guard: false, trials: 10 })
      guarded = await runCrossProcessRace({ hasherModule: HASHER, guard: true })
    }, 120_000)

    test('without the guard some logout is undone (the race is real)', () => {
      expect(unguarded.reduce((sum, r) => sum + r.resurrected, 0)).toBeGreaterThan(0)
    })

    test('with tombstones in the cluster, no session comes back on any process', () => {
      expect(guarded).toHaveLength(2)
      for (const report of guarded) expect(report).toMatchObject({ resurrected: 0, failed: 0, trials: 20 })
    })
  })
})
