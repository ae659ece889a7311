import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { compareResults } from '../src/results/compare.js'
import { readResults } from '../src/results/results.js'

/**
 * Three real quick `--suite ids` runs on the shared 2-core box (load average 13–31), minutes apart, of the
 * same ids code: a and b as they are, the third with AUTHLAB_BENCH_SLOW=@authlab/id-fast (10 % more work).
 */
const recorded = (name: string) => readResults(join(import.meta.dirname, 'recorded', `${name}.json`))
const [a, b, slowed] = [recorded('ids-run-a'), recorded('ids-run-b'), recorded('ids-run-id-fast-slowed')]
const options = { thresholdPct: 5, alpha: 0.01, absolute: false }

describe('compare on recorded real runs', () => {
  test('two runs of the same code: no regression, and the A/A control reads no change', () => {
    const { changes } = compareResults([a], [b], options)
    expect(changes.filter((c) => c.decision === 'regression')).toEqual([])
    expect(changes.find((c) => c.key.includes('(A/A)'))?.decision).toBe('no change')
  })

  test('the run with id-fast doing 10 % more work: that row, and only that row, is a regression', () => {
    for (const before of [[a], [b], [a, b]]) {
      const regressions = compareResults(before, [slowed], options).changes.filter(
        (c) => c.decision === 'regression',
      )
      expect(regressions.map((c) => c.key)).toEqual(['ids · IDs/s · @authlab/id-fast [IDs/s]'])
      expect(regressions[0]?.deltaPct).toBeLessThan(-5)
    }
  })

  test('in every recorded run the A/A control reads within 2 % of 1 and no row beats the flat-string ceiling', () => {
    for (const run of [a, b, slowed]) {
      const rows = run.suites[0]?.rows ?? []
      const control = rows.find((r) => r.flags.includes('A/A control'))
      // The earlier harness read the same generator at 0.91–1.38 of itself over three runs.
      expect(Math.abs((control?.ratios[0]?.value ?? 0) - 1)).toBeLessThan(0.02)
      for (const row of rows.filter((r) => r.candidate !== 'ref:flat-string')) {
        const ceiling = row.ratios.find((q) => q.baseline.startsWith('flat 32-char string'))
        expect(ceiling?.low).toBeLessThanOrEqual(1)
      }
    }
  })
})
