import { describe, expect, test } from 'vitest'
import { interleavedRounds, summarizeRounds } from '../src/suites/http/rounds.js'

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
})
