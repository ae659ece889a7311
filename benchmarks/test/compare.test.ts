import { describe, expect, test } from 'vitest'
import type { ResultsFile, Row } from '../src/model/types.js'
import { compareResults, decide, SINGLE_PROCESS_REASON } from '../src/stats/compare.js'
import { ratioSpread, verdictAudit } from '../src/stats/spread.js'
import { median, seededRandom } from '../src/stats/stats.js'
import { roundsAround, syntheticResults, withFastRatios } from './fixtures.js'

const options = { thresholdPct: 5, alpha: 0.01, absolute: false }

/** Per-round ratios of a candidate whose true ratio is `center`, with ±`noise` uniform round-to-round noise. */
function noisyRounds(center: number, noise: number, n: number, seed: number): number[] {
  const random = seededRandom(seed)
  return Array.from({ length: n }, () => center * (1 + noise * (2 * random() - 1)))
}

describe('decide: Mann–Whitney U over per-round values plus a minimum effect', () => {
  test('two runs of the same code (same distribution, independent noise) never read as a regression', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const before = noisyRounds(2.5, 0.05, 7, seed)
      const after = noisyRounds(2.5, 0.05, 7, seed + 1000)
      expect(decide(before, after, true, options).verdict).not.toBe('worse')
    }
  })

  test('a candidate doing 10 % more work is found as a regression in every draw of 10 rounds a side', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const before = noisyRounds(2.5, 0.03, 10, seed)
      const after = noisyRounds(2.5 / 1.1, 0.03, 10, seed + 1000)
      const { verdict, deltaPct, p } = decide(before, after, true, options)
      expect(verdict).toBe('worse')
      expect(deltaPct).toBeLessThan(-5)
      expect(p).toBeLessThan(0.01)
    }
  })

  test('a real but small change (3 %, fully separated rounds) is below the minimum effect: no change', () => {
    expect(decide(roundsAround(2.5, 0.002), roundsAround(2.5 * 0.97, 0.002), true, options)).toMatchObject({
      verdict: 'same',
    })
  })

  test('a 6 % change with overlapping rounds is not significant: no change', () => {
    const before = [2.4, 2.45, 2.5, 2.52, 2.55, 2.6, 2.38]
    const after = [2.3, 2.55, 2.35, 2.2, 2.5, 2.34, 2.45]
    expect(decide(before, after, true, options)).toMatchObject({ verdict: 'same' })
    expect(decide(before, after, true, options).deltaPct).toBeCloseTo(-6, 0)
  })

  test('a shift that a side’s own spread predicts for the next run is no change, however separated the rounds', () => {
    // Two runs of one commit: every round of one above every round of the other (p < 0.01), 12 % apart,
    // while each run's rounds spread ±19 %.
    const before = [0.81, 0.95, 1.0, 1.02, 1.05, 1.12, 1.19]
    const after = before.map((v) => v * 0.88 * (v > 1.04 ? 0.9 : 1))
    expect(decide(before, after, true, options).verdict).toBe('same')
    expect(decide(roundsAround(8, 0.01), roundsAround(4, 0.01), true, options).verdict).toBe('worse')
  })

  test('one run a side: a change whose 95 % interval reaches inside the threshold is undecided, however separated', () => {
    // One run against one of a commit: id-pooled-bytes' five rounds a side (p = 0.008, the least five can give).
    const [before, after] = [
      [1.3474, 1.334, 1.274, 1.2701, 1.2145],
      [1.1787, 1.1645, 1.1624, 1.2089, 1.154],
    ]
    const change = decide(before, after, true, options, {
      before: [1.27],
      after: [1.16],
      processRounds: true,
    })
    expect(change).toMatchObject({ verdict: 'undecided', p: expect.closeTo(0.008, 3) })
    expect(change.deltaPct).toBeCloseTo(-8.6, 1)
    expect(change.lowPct).toBeLessThan(-5)
    expect(change.highPct).toBeGreaterThan(-5)
    // The same shift with rounds a quarter as spread: the interval clears the threshold.
    const tight = (rounds: number[], center: number) => rounds.map((v) => center + (v - center) / 4)
    expect(
      decide(tight(before, 1.27), tight(after, 1.16), true, options, {
        before: [1.27],
        after: [1.16],
        processRounds: true,
      }).verdict,
    ).toBe('worse')
  })

  test('either side’s spread predicting the other’s median is no change, so a pair reads alike both ways', () => {
    // uid-safe's ratio in two quick runs of one commit: the first run's rounds spread widely (its
    // interval for the next run's median covers the second run), the second's are tight.
    const wide = [0.04023, 0.0408, 0.04032, 0.03038, 0.03136]
    const tight = [0.02828, 0.03002, 0.02771, 0.02802, 0.02847]
    const runs = (b: number[], a: number[]) => ({
      before: [median(b)],
      after: [median(a)],
      processRounds: true,
    })
    expect(decide(wide, tight, true, options, runs(wide, tight)).verdict).toBe('same')
    expect(decide(tight, wide, true, options, runs(tight, wide)).verdict).toBe('same')
    expect(decide(tight, wide, true, options, runs(tight, wide)).p).toBeLessThan(0.01)
  })
})

describe('decide: what one run a side can and cannot show', () => {
  test('fewer than 5 rounds on a side is undecided, never a regression', () => {
    expect(decide([2.5, 2.5, 2.5], [1, 1, 1], true, options).verdict).toBe('undecided')
  })

  test('rounds that share one process: one run a side is undecided; a shift the runs already showed is no change', () => {
    const [before, after] = [roundsAround(2.5, 0.01), roundsAround(2.0, 0.01)]
    expect(decide(before, after, true, options, { before: [2.5], after: [2.0] })).toMatchObject({
      verdict: 'undecided',
      reason: SINGLE_PROCESS_REASON,
    })
    // Two before runs 2.0 and 2.5 apart: an after side at 2.0 is within what the runs showed.
    expect(decide(before, after, true, options, { before: [2.0, 2.5], after: [2.0, 2.0] }).verdict).toBe(
      'same',
    )
    expect(decide(before, after, true, options, { before: [2.45, 2.5], after: [2.0, 2.0] }).verdict).toBe(
      'worse',
    )
  })

  test('rounds in fresh processes: one run a side decides; with several, a shift within the runs’ range is no change', () => {
    const [before, after] = [roundsAround(2.5, 0.01), roundsAround(2.3, 0.01)]
    const runs = (b: number[], a: number[]) => ({ before: b, after: a, processRounds: true })
    expect(decide(before, after, true, options, runs([2.5], [2.3])).verdict).toBe('worse')
    // Three runs of one commit whose medians spread 2.25–2.55: an after side at 2.3 is what they showed.
    expect(decide(before, after, true, options, runs([2.25, 2.5, 2.55], [2.3, 2.3, 2.3])).verdict).toBe(
      'same',
    )
    expect(decide(before, after, true, options, runs([2.45, 2.5, 2.55], [2.3, 2.3, 2.3])).verdict).toBe(
      'worse',
    )
  })

  test('with several runs a side, a change must move every after run beyond the before runs: one load does not', () => {
    // Speed-ups at K = 2 of three runs against three of one commit: two after runs met the other core busy.
    const before = [
      1.28, 2.7, 1.68, 1.93, 1.87, 1.52, 2.04, 2.03, 2.0, 1.99, 1.96, 1.91, 1.92, 1.7, 1.95, 2.03,
    ]
    const after = [1.49, 1.34, 1.27, 1.28, 1.98, 1.34, 1.28, 1.88, 2.01, 1.13, 1.24, 1.41, 1.36, 1.99, 1.33]
    const runs = { before: [1.77, 2.0, 1.92], after: [1.34, 1.34, 1.95] }
    expect(decide(before, after, true, options, runs)).toMatchObject({ verdict: 'same' })
    expect(decide(before, after, true, options, { ...runs, after: [1.34, 1.34, 1.4] }).verdict).toBe('worse')
  })

  test('for lower-is-better values a rise is the regression; a fall is better', () => {
    const fast = roundsAround(100, 0.01)
    const slow = roundsAround(120, 0.01)
    expect(decide(fast, slow, false, options).verdict).toBe('worse')
    expect(decide(slow, fast, false, options).verdict).toBe('better')
  })
})

describe('compareResults', () => {
  test('the same results on both sides: every row "no change"', () => {
    const { changes } = compareResults([syntheticResults()], [syntheticResults()], options)
    expect(changes.map((c) => c.verdict)).toEqual(['same', 'same', 'undecided', 'same'])
  })

  test('several files per side are pooled round by round', () => {
    const before = [withFastRatios(roundsAround(2.5)), withFastRatios(roundsAround(2.5, 0.01))]
    const after = [withFastRatios(roundsAround(2.2)), withFastRatios(roundsAround(2.2, 0.01))]
    const fast = compareResults(before, after, options).changes.find((c) => c.key.includes('id-fast'))
    expect(fast).toMatchObject({ roundsBefore: 14, roundsAfter: 14, verdict: 'worse' })
    expect(fast?.deltaPct).toBeCloseTo(-12, 0)
  })

  test('--absolute compares per-round raw values', () => {
    const after = structuredClone(syntheticResults()) as ResultsFile & { suites: { rows: Row[] }[] }
    const fast = after.suites[0]?.rows[1] as Row
    ;(after.suites[0] as { rows: Row[] }).rows[1] = { ...fast, rounds: roundsAround(8_000_000) }
    const change = compareResults([syntheticResults()], [after], { ...options, absolute: true }).changes.find(
      (c) => c.key.includes('id-fast'),
    )
    expect(change).toMatchObject({ unit: 'IDs/s', verdict: 'worse' })
  })

  test('rows present on only one side are listed, not compared', () => {
    const after = structuredClone(syntheticResults()) as ResultsFile & { suites: { rows: Row[] }[] }
    after.suites[0]?.rows.splice(2, 1)
    const { onlyBefore, onlyAfter } = compareResults([syntheticResults()], [after], options)
    expect(onlyBefore).toEqual(['ids · defaults · generate · @authlab/id-random-int'])
    expect(onlyAfter).toEqual([])
  })
})

describe('ratioSpread over consecutive runs', () => {
  test('reports each ratio per run, its min–max and its farthest deviation from the median of the runs', () => {
    const runs = [2.4, 2.6, 2.5].map((center) => withFastRatios(roundsAround(center, 0)))
    const spread = ratioSpread(runs).find((s) => s.key === 'ids · defaults · generate · @authlab/id-fast')
    expect(spread).toMatchObject({ values: [2.4, 2.6, 2.5], min: 2.4, max: 2.6, median: 2.5 })
    expect(spread?.maxDeviationPct).toBeCloseTo(4, 9)
  })
})

describe('verdictAudit over consecutive runs', () => {
  test('counts decided comparisons per suite, verdicts that change between runs and intervals that miss', () => {
    // id-fast at 2.5× ±2 %, then at 1.0× (decided "same"): a flip, and neither interval covers the other median.
    const runs = [withFastRatios(roundsAround(2.5)), withFastRatios(roundsAround(1))]
    const audit = verdictAudit(runs)
    const fast = 'ids · defaults · generate · @authlab/id-fast'
    expect(audit.flips.filter((f) => f.startsWith(fast))).toHaveLength(1)
    expect(audit.flips.find((f) => f.startsWith(fast))).toMatch(/better \/ same$/)
    const [first] = audit.runs
    expect(first?.suites.get('ids')?.decided).toBeGreaterThan(0)
    // The fixture's random-int row has 3 rounds, fewer than a verdict needs, far beyond the margin.
    expect(first?.beyondMarginUndecided).toEqual([
      'ids · defaults · generate · @authlab/id-random-int ÷ ref:randomUUID',
    ])
    expect(first?.controlsOff).toEqual([])
    expect(audit.coverage.covered).toBeLessThan(audit.coverage.pairs)
  })

  test('an interval wholly below 1 ÷ 1.05 (0.952) left undecided is flagged: the rule’s own margin', () => {
    const run = withFastRatios(roundsAround(2.5))
    const row = run.suites[0]?.rows.find((r) => r.candidate === '@authlab/id-fast')
    const ratio = row?.ratios[0]
    if (!row || !ratio) throw new Error('the fixture has an id-fast ratio')
    const undecided = { ...ratio, value: 0.94, low: 0.93, high: 0.951, verdict: 'undecided' as const }
    Object.assign(row, { ratios: [undecided, ...row.ratios.slice(1)] })
    const flagged = verdictAudit([run]).runs[0]?.beyondMarginUndecided ?? []
    expect(flagged.filter((key) => key.includes('@authlab/id-fast'))).toHaveLength(1)
  })

  test('the same run twice: no flips, every decided interval covers the other median', () => {
    const run = withFastRatios(roundsAround(2.5))
    const audit = verdictAudit([run, run])
    expect(audit.flips).toEqual([])
    expect(audit.coverage.pairs).toBeGreaterThan(0)
    expect(audit.coverage.covered).toBe(audit.coverage.pairs)
  })
})
