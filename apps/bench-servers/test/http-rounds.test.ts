import { describe, expect, test } from 'vitest'
import { summarizeRounds } from '../src/http/rounds.js'
import { alternatingWindows, cycleRatio } from '../src/http/window.js'

describe('http suite rounds', () => {
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
})

describe('alternating windows', () => {
  test("a round's ratio is the median of same-cycle ratios, so a slow phase of the machine cancels out", () => {
    // The machine halves its speed in cycle 2: both windows of that cycle see it.
    expect(cycleRatio([90, 45, 90], [100, 50, 100])).toBeCloseTo(0.9, 12)
  })

  test('a cycle with a failed window on either side is dropped, and no usable cycle gives no ratio', () => {
    expect(cycleRatio([90, undefined, 120], [100, 50, undefined])).toBeCloseTo(0.9, 12)
    expect(cycleRatio([undefined, 90], [100, undefined])).toBeUndefined()
    expect(cycleRatio([], [])).toBeUndefined()
  })
})

describe('a round of alternating windows', () => {
  test('one window per candidate per cycle, a failed window kept as undefined, latencies gathered', async () => {
    const seen: string[] = []
    const { rates, latenciesMs } = await alternatingWindows(['a', 'b'], 3, 1, 0, async (c) => {
      seen.push(c)
      const failed = c === 'b' && seen.filter((x) => x === 'b').length === 2
      return { requestsPerSec: 100, completed: 25, failures: failed ? 1 : 0, latenciesMs: [1, 2] }
    })
    expect(seen).toHaveLength(6)
    for (let cycle = 0; cycle < 3; cycle++)
      expect(seen.slice(2 * cycle, 2 * cycle + 2).sort()).toEqual(['a', 'b'])
    expect(rates.get('a')).toEqual([100, 100, 100])
    expect(rates.get('b')).toEqual([100, undefined, 100])
    expect(latenciesMs.get('a')).toHaveLength(6)
  })
})
