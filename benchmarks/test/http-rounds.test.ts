import { describe, expect, test } from 'vitest'
import { interleavedRounds, meanCi, median, summarizeRounds } from '../src/suites/http/rounds.js'

describe('http suite round scheduling', () => {
  test('rounds alternate A B C and C B A', () => {
    expect(interleavedRounds(['A', 'B', 'C'], 5)).toEqual([
      ['A', 'B', 'C'],
      ['C', 'B', 'A'],
      ['A', 'B', 'C'],
      ['C', 'B', 'A'],
      ['A', 'B', 'C'],
    ])
  })

  test('every candidate runs once per round and equally often in each position over a pair of rounds', () => {
    const rounds = interleavedRounds(['A', 'B', 'C', 'D'], 6)
    for (const round of rounds) expect([...round].sort()).toEqual(['A', 'B', 'C', 'D'])
    const meanPosition = (x: string) =>
      rounds.reduce((sum, round) => sum + round.indexOf(x), 0) / rounds.length
    for (const x of ['A', 'B', 'C', 'D']) expect(meanPosition(x)).toBe(1.5)
  })

  test.each([0, -1, 2.5, Number.NaN])('%s rounds is refused', (rounds) => {
    expect(() => interleavedRounds(['A'], rounds)).toThrow(RangeError)
  })

  test('a round with errors, timeouts or non-2xx answers is marked and kept out of the median', () => {
    const summary = summarizeRounds([
      { value: 100, failures: 0 },
      { value: 5, failures: 3 },
      { value: 120, failures: 0 },
      { value: 110, failures: 0 },
    ])
    expect(summary).toEqual({
      median: 110,
      min: 100,
      max: 120,
      spreadPct: (20 / 110) * 100,
      cleanRounds: 3,
      markedRounds: 1,
      failures: 3,
    })
  })

  test('no clean round gives no figure', () => {
    const summary = summarizeRounds([{ value: 100, failures: 1 }])
    expect(summary.median).toBeNaN()
    expect(summary.cleanRounds).toBe(0)
  })

  test('median of an even count is the mean of the middle two', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5)
  })
})

describe('mean and 95 % t-interval of per-round ratios', () => {
  test('matches a hand computation: mean 1, s = 0.1, n = 4 → ± 3.182 · 0.05', () => {
    const { mean, halfWidth } = meanCi([0.9, 1.1, 0.9, 1.1])
    expect(mean).toBeCloseTo(1, 12)
    // s = sqrt(4 · 0.01 / 3) = 0.11547; SE = s / 2; t(0.975, 3) = 3.182
    expect(halfWidth).toBeCloseTo(3.182 * (Math.sqrt(0.04 / 3) / 2), 10)
  })

  test('a single round has a mean but no interval; none has neither', () => {
    expect(meanCi([0.99]).mean).toBe(0.99)
    expect(meanCi([0.99]).halfWidth).toBeNaN()
    expect(meanCi([]).mean).toBeNaN()
  })

  test('identical rounds give a zero-width interval', () => {
    expect(meanCi([1, 1, 1]).halfWidth).toBe(0)
  })
})
