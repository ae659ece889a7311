import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { compareResults } from '../src/results/compare.js'
import { readResults } from '../src/results/results.js'

/**
 * Real runs on the shared 2-core box (load average 2.1–3.0), minutes apart, of one commit: the three
 * published quick runs of the default suites, then three quick `--suite ids` runs with
 * AUTHLAB_BENCH_SLOW=@authlab/id-fast (the harness calls id-fast 10 % more often than it counts).
 */
const RESULTS = join(import.meta.dirname, '..', 'results')
const published = ['074933Z', '075225Z', '075515Z'].map((t) =>
  readResults(join(RESULTS, `2026-12-01T${t}-5924d4d.json`)),
)
const slowed = [1, 2, 3].map((i) =>
  readResults(join(import.meta.dirname, 'recorded', `ids-id-fast-slowed-${i}.json`)),
)
const options = { thresholdPct: 5, alpha: 0.01, absolute: false }
const regressions = (before: typeof published, after: typeof published) =>
  compareResults(before, after, options)
    .changes.filter((c) => c.decision === 'regression')
    .map((c) => c.key)

describe('compare on recorded real runs', () => {
  test('any two runs of the same commit: no regression among 87 rows', () => {
    for (const [i, j] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ] as const) {
      const [before, after] = [published.slice(i, i + 1), published.slice(j, j + 1)]
      expect(compareResults(before, after, options).changes).toHaveLength(87)
      expect(regressions(before, after)).toEqual([])
    }
  })

  test('id-fast doing 10 % more work: three runs against three find it, and only it', () => {
    const found = compareResults(published, slowed, options).changes.filter(
      (c) => c.decision === 'regression',
    )
    expect(found.map((c) => c.key)).toEqual(['ids · IDs/s · @authlab/id-fast [IDs/s]'])
    expect(found[0]?.deltaPct).toBeLessThan(-5)
  })

  test('one run against one does not call it (the slowdown is inside what a single run can resolve)', () => {
    // Recorded: −11.5 % (p = 0.026), −6.2 % (p = 0.13), −11.5 % (p = 0.041) against the third
    // published run; a false alarm is worse here than a miss, which the pooled comparison repairs.
    for (const run of slowed) expect(regressions(published.slice(2), [run])).toEqual([])
  })

  test('every A/A control of the ids and hash suites covers 1 in all three runs', () => {
    for (const run of published) {
      const controls = run.suites
        .filter((s) => s.name === 'ids' || s.name === 'hash')
        .flatMap((s) => s.rows)
        .filter((r) => r.flags.includes('A/A control'))
      expect(controls).toHaveLength(3)
      for (const control of controls) {
        const q = control.ratios[0]
        expect(q?.low).toBeLessThanOrEqual(1)
        expect(q?.high).toBeGreaterThanOrEqual(1)
      }
    }
  })
})
