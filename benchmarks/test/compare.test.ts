import { describe, expect, test } from 'vitest'
import { compareResults, significantlyDifferent } from '../src/results/compare.js'
import type { ResultsFile } from '../src/results/results.js'
import { ratioSpread } from '../src/results/spread.js'
import type { Row } from '../src/types.js'
import { syntheticResults, withIdsValue } from './fixtures.js'

const base: Row = {
  suite: 'hash',
  group: 'defaults · hash',
  candidate: 'x',
  label: 'x',
  value: 100,
  unit: 'ms/hash',
  higherIsBetter: false,
  rme: 2,
  ratios: [],
  details: {},
  flags: [],
}

describe('significance rule: 95 % confidence intervals that do not overlap', () => {
  test('100 ± 2 % vs 105 ± 2 %: intervals 98–102 and 102.9–107.1 are apart → significant', () => {
    expect(significantlyDifferent(base, { ...base, value: 105 })).toBe(true)
  })
  test('100 ± 2 % vs 103 ± 2 %: 98–102 and 100.94–105.06 overlap → not significant', () => {
    expect(significantlyDifferent(base, { ...base, value: 103 })).toBe(false)
  })
  test('a wide spread hides a large change', () => {
    expect(significantlyDifferent({ ...base, rme: 30 }, { ...base, value: 150, rme: 30 })).toBe(false)
  })
  test('a row without spread (one-shot figure) is never significant', () => {
    const { rme, ...oneShot } = base
    expect(rme).toBe(2)
    expect(significantlyDifferent(oneShot, { ...oneShot, value: 1000 })).toBe(false)
  })
})

describe('compareResults on absolute values', () => {
  const before = withIdsValue(10_000_000, 3)

  test('a significant drop in a higher-is-better figure beyond the threshold is a regression', () => {
    const { changes } = compareResults(before, withIdsValue(8_000_000, 3), 5, true)
    const fast = changes.find((c) => c.key.includes('@authlab/id-fast'))
    expect(fast).toMatchObject({ deltaPct: -20, worse: true, significant: true, regression: true })
  })

  test('a significant drop within the threshold is reported as worse but not a regression', () => {
    const { changes } = compareResults(before, withIdsValue(9_600_000, 0.5), 5, true)
    expect(changes.find((c) => c.key.includes('id-fast'))).toMatchObject({
      significant: true,
      worse: true,
      regression: false,
    })
  })

  test('a significant gain is not a regression; for lower-is-better figures a rise is worse', () => {
    const gain = compareResults(before, withIdsValue(12_000_000, 3), 5, true).changes.find((c) =>
      c.key.includes('id-fast'),
    )
    expect(gain).toMatchObject({ worse: false, significant: true, regression: false })
    const slow = {
      ...syntheticResults(),
      suites: [{ name: 'hash', description: '', notes: [], rows: [base] }],
    }
    const slower = {
      ...slow,
      suites: [{ name: 'hash', description: '', notes: [], rows: [{ ...base, value: 120 }] }],
    }
    expect(compareResults(slow, slower, 5, true).changes[0]).toMatchObject({ worse: true, regression: true })
  })

  test('by default the ratio to the same-run baseline is compared: a machine twice as busy is no regression', () => {
    const busy = withIdsValue(5_000_000, 3, { value: 2.5, rme: 3.6 })
    const fast = compareResults(before, busy, 5).changes.find((c) => c.key.includes('id-fast'))
    expect(fast).toMatchObject({ unit: '× vs crypto.randomUUID() [ref]', deltaPct: 0, regression: false })
    const slower = withIdsValue(10_000_000, 3, { value: 2, rme: 3.6 })
    expect(compareResults(before, slower, 5).changes.find((c) => c.key.includes('id-fast'))).toMatchObject({
      deltaPct: -20,
      regression: true,
    })
  })

  test('rows present in only one file are listed, not compared', () => {
    const after = structuredClone(syntheticResults()) as ResultsFile & { suites: { rows: Row[] }[] }
    after.suites[0]?.rows.pop()
    const { onlyBefore, onlyAfter } = compareResults(syntheticResults(), after, 5)
    expect(onlyBefore).toEqual(['ids · IDs/s · @authlab/id-random-int [IDs/s]'])
    expect(onlyAfter).toEqual([])
  })
})

describe('ratioSpread over consecutive runs', () => {
  test('reports each ratio per run and its min–max; a row missing from a run shows as a gap', () => {
    const runs = [withIdsValue(1, 1), withIdsValue(1, 1), withIdsValue(1, 1)].map((r, i) => {
      const copy = structuredClone(r) as ResultsFile & { suites: { rows: Row[] }[] }
      const rows = copy.suites[0]?.rows ?? []
      rows[1] = {
        ...(rows[1] as Row),
        ratios: [{ baseline: 'crypto.randomUUID() [ref]', value: [2.4, 2.6, 2.5][i] ?? 0, rme: 3 }],
      }
      if (i === 2) rows.pop()
      return copy
    })
    const spread = ratioSpread(runs)
    expect(spread.find((s) => s.key === 'ids · IDs/s · @authlab/id-fast')).toEqual({
      key: 'ids · IDs/s · @authlab/id-fast',
      baseline: 'crypto.randomUUID() [ref]',
      values: [2.4, 2.6, 2.5],
      min: 2.4,
      max: 2.6,
    })
    expect(spread.find((s) => s.key.endsWith('id-random-int'))?.values).toEqual([0.075, 0.075, undefined])
  })
})
