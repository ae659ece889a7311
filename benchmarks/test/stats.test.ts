import { describe, expect, test } from 'vitest'
import { runRounds, shuffledRounds } from '../src/harness/rounds.js'
import {
  mannWhitney,
  median,
  medianInPlace,
  medianInterval,
  quantile,
  seededRandom,
  selectInPlace,
  shiftInterval,
} from '../src/stats/stats.js'
import { limitFlags, perRoundRatios, summarizeRatio } from '../src/stats/verdict.js'

describe('Mann–Whitney U', () => {
  test('exact two-sided p-values match the tables: 3 vs 3 fully separated → 2/20, 5 vs 5 → 2/252', () => {
    expect(mannWhitney([1, 2, 3], [4, 5, 6])).toEqual({ u: 0, p: 0.1 })
    expect(mannWhitney([6, 7, 8, 9, 10], [1, 2, 3, 4, 5]).p).toBeCloseTo(2 / 252, 12)
  })

  test('U counts the pairs won by the first sample; one swap out of 9 pairs gives U = 1, p = 4/20', () => {
    expect(mannWhitney([1, 2, 4], [3, 5, 6])).toEqual({ u: 1, p: 0.2 })
  })

  test('identical samples (all ties) are no evidence: p = 1', () => {
    expect(mannWhitney([1, 1, 1, 1, 1], [1, 1, 1, 1, 1]).p).toBe(1)
  })

  test('large samples use the normal approximation and still separate a clear shift', () => {
    const a = Array.from({ length: 60 }, (_, i) => i)
    const b = Array.from({ length: 60 }, (_, i) => i + 40)
    expect(mannWhitney(a, b).p).toBeLessThan(1e-6)
    expect(
      mannWhitney(
        a,
        a.map((x) => x + 0.5),
      ).p,
    ).toBeGreaterThan(0.5)
  })
})

describe('selection', () => {
  test('the median by selection is the median by sorting, ties and even lengths included', () => {
    const random = seededRandom(3)
    for (const length of [1, 2, 3, 10, 11, 200, 201]) {
      const values = Float64Array.from({ length }, () => Math.round(random() * 8))
      const sorted = [...values].sort((x, y) => x - y)
      expect(medianInPlace(Float64Array.from(values))).toBe(median(sorted))
      for (const k of [0, length >> 1, length - 1])
        expect(selectInPlace(Float64Array.from(values), k)).toBe(sorted[k])
    }
  })
})

describe('the shift interval of the rank test', () => {
  test('equals the k-th smallest and largest of every pairwise difference listed, ties and all', () => {
    const random = seededRandom(7)
    // Rounded to few values, so many differences tie.
    const sample = (length: number, shift: number) =>
      Array.from({ length }, () => Math.round((random() + shift) * 20) / 20)
    for (const [m, n] of [
      [5, 5],
      [7, 12],
      [40, 31],
      [60, 60],
    ] as const) {
      const [a, b] = [sample(m, 0), sample(n, 0.2)]
      const listed = a.flatMap((x) => b.map((y) => y - x)).sort((x, y) => x - y)
      for (const alpha of [0.01, 0.05, 0.2]) {
        const { low, high } = shiftInterval(a, b, alpha)
        if (low === Number.NEGATIVE_INFINITY) continue
        // Some k has the k-th smallest difference at low and the k-th largest at high.
        const ks = listed.flatMap((d, index) => (d === low ? [index + 1] : []))
        expect(ks.some((k) => listed[listed.length - k] === high)).toBe(true)
      }
      let u = 0
      for (const x of a) for (const y of b) u += x > y ? 1 : x === y ? 0.5 : 0
      expect(mannWhitney(a, b).u).toBe(u)
    }
  })

  test('5 vs 5 at 95 %: the 3rd smallest and 3rd largest of the 25 pairwise differences (P(U < 3) = 4/252)', () => {
    const a = [1, 2, 3, 4, 5]
    expect(
      shiftInterval(
        a,
        a.map((x) => x + 10),
        0.05,
      ),
    ).toEqual({ low: 7, high: 13 })
    // At 99 % only the extremes remain (P(U < 1) = 1/252); 3 vs 3 cannot reach 99 % at all.
    expect(
      shiftInterval(
        a,
        a.map((x) => x + 10),
        0.01,
      ),
    ).toEqual({ low: 6, high: 14 })
    expect(shiftInterval([1, 2, 3], [4, 5, 6], 0.01)).toEqual({ low: -Infinity, high: Infinity })
  })

  test('covers the true shift in about 95 % of draws, exact (8 vs 8) and approximate (60 vs 60)', () => {
    const random = seededRandom(7)
    for (const n of [8, 60]) {
      let covered = 0
      for (let draw = 0; draw < 400; draw++) {
        const a = Array.from({ length: n }, () => random())
        const b = Array.from({ length: n }, () => random() + 0.3)
        const { low, high } = shiftInterval(a, b, 0.05)
        if (low <= 0.3 && 0.3 <= high) covered++
      }
      expect(covered / 400).toBeGreaterThan(0.92)
      expect(covered / 400).toBeLessThan(0.99)
    }
  })
})

describe('medians and their intervals', () => {
  test('median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2)
    expect(median([4, 1, 3, 2])).toBe(2.5)
    expect(median([])).toBeNaN()
  })

  test('the bootstrap interval of 5 rounds is their range, and it is reproducible', () => {
    expect(medianInterval([1.1, 0.9, 1.0, 1.05, 0.95])).toEqual({ low: 0.9, high: 1.1 })
    const values = Array.from({ length: 15 }, (_, i) => 1 + i / 100)
    expect(medianInterval(values)).toEqual(medianInterval(values))
    const { low, high } = medianInterval(values)
    expect(low).toBeGreaterThan(1)
    expect(high).toBeLessThan(1.14)
  })
})

describe('rounds', () => {
  test('every round holds every candidate once, in an order drawn afresh from the seed', () => {
    const rounds = shuffledRounds(['A', 'B', 'C', 'D'], 8, 42)
    for (const round of rounds) expect([...round].sort()).toEqual(['A', 'B', 'C', 'D'])
    expect(new Set(rounds.map((r) => r.join(''))).size).toBeGreaterThan(1)
    expect(shuffledRounds(['A', 'B', 'C', 'D'], 8, 42)).toEqual(rounds)
    expect(() => shuffledRounds(['A'], 0, 1)).toThrow(RangeError)
  })

  test('runRounds keeps results paired by round; a failed measurement leaves a gap, not a shift', async () => {
    const failures: string[] = []
    const results = await runRounds({
      candidates: ['base', 'x'],
      budget: { rounds: 3 },
      seed: 7,
      measure: async (c, round) => {
        if (c === 'x' && round === 1) throw new Error('boom')
        return c === 'base' ? 10 + round : 20 + round
      },
      onError: (c) => failures.push(c),
    })
    expect(results.get('base')).toEqual([10, 11, 12])
    expect(results.get('x')).toEqual([20, undefined, 22])
    expect(failures).toEqual(['x'])
    expect(perRoundRatios(results.get('x') ?? [], results.get('base') ?? [], true)).toEqual([2, 22 / 12])
    expect(perRoundRatios([50, 40], [100, 100], false)).toEqual([2, 2.5])
  })

  test('an interlude runs once, after the first half of the minimum rounds and before the rest', async () => {
    const events: string[] = []
    await runRounds({
      candidates: ['a', 'b'],
      budget: { rounds: 5 },
      seed: 1,
      measure: async (c, round) => {
        events.push(`${round}${c}`)
        return 1
      },
      onError: () => {},
      interlude: async () => {
        events.push('interlude')
      },
    })
    expect(events.indexOf('interlude')).toBe(6)
    expect(events.filter((e) => e === 'interlude')).toHaveLength(1)
    expect(events.slice(0, 6).every((e) => Number(e[0]) < 3)).toBe(true)
    expect(events.slice(7).every((e) => Number(e[0]) >= 3)).toBe(true)
  })

  test('a ratio to a limit wholly above 1 is a measurement error', () => {
    expect(
      limitFlags(summarizeRatio({ against: 'limit', label: 'limit' }, [1.1, 1.2, 1.15, 1.12, 1.18]))[0],
    ).toMatchObject({ kind: 'above-limit', limit: 1, low: expect.any(Number) })
    expect(
      limitFlags(summarizeRatio({ against: 'limit', label: 'limit' }, [0.9, 1.05, 0.95, 1.0, 0.97])),
    ).toEqual([])
    expect(summarizeRatio({ against: 'x', label: 'x' }, [])).toMatchObject({
      verdict: 'undecided',
      rounds: [],
    })
  })

  test('the seeded source is deterministic and uniform enough to shuffle', () => {
    const random = seededRandom(3)
    const draws = Array.from({ length: 10_000 }, random)
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0)
    expect(Math.max(...draws)).toBeLessThan(1)
    expect(draws.reduce((s, x) => s + x, 0) / draws.length).toBeCloseTo(0.5, 1)
  })
})

describe('quantile', () => {
  test('nearest rank: p50 and p99 of 1..100 are 50 and 99, p100 is the maximum, and order does not matter', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i)
    expect(quantile(values, 0.5)).toBe(50)
    expect(quantile(values, 0.99)).toBe(99)
    expect(quantile(values, 1)).toBe(100)
    expect(quantile([7], 0.99)).toBe(7)
    expect(quantile([], 0.5)).toBeNaN()
  })
})
