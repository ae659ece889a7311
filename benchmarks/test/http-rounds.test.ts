import { describe, expect, test } from 'vitest'
import { summarizeRounds } from '../src/suites/http/rounds.js'

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
