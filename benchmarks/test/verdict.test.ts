import { describe, expect, test } from 'vitest'
import { runRounds } from '../src/harness/rounds.js'
import type { Ratio } from '../src/model/types.js'
import { formatMagnitude, formatRatio, verdictText } from '../src/report/words.js'
import { decideRows } from '../src/stats/decide.js'
import { medianInterval, seededRandom } from '../src/stats/stats.js'
import {
  decidable,
  judge,
  MIN_EFFECT_PCT,
  ratioInterval,
  rejudge,
  smallSampleFactor,
  summarizeRatio,
  t975,
} from '../src/stats/verdict.js'
import { row } from './fixtures.js'

/** A standard normal draw (Box–Muller) from a seeded source. */
function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
}

/**
 * One simulated run: `n` rounds of a ratio whose true value is `truth`, each round its own process with
 * ±`roundSd` log-normal noise, plus a shift shared by the whole run (the machine's phase) of ±`runSd`.
 */
function simulatedRun(random: () => number, truth: number, n: number, roundSd = 0.08, runSd = 0.01) {
  const shift = runSd * normal(random)
  return Array.from({ length: n }, () => truth * Math.exp(shift + roundSd * normal(random)))
}

describe('verdicts separate direction from precision', () => {
  test('an interval wholly beyond the margin is decided, however wide', () => {
    // express-session's genid ÷ randomUUID, argon2id WASM ÷ native, bcryptjs ÷ bcrypt: all decided.
    expect(judge({ low: 0.026, high: 0.034 }, 6)).toBe('worse')
    expect(judge({ low: 0.14, high: 0.43 }, 5)).toBe('worse')
    expect(judge({ low: 0.49, high: 0.91 }, 5)).toBe('worse')
    expect(judge({ low: 1.2, high: 9 }, 5)).toBe('better')
  })

  test('same only when the whole interval lies inside the margin, never merely because it covers 1', () => {
    expect(judge({ low: 0.97, high: 1.03 }, 7)).toBe('same')
    expect(judge({ low: 0.83, high: 1.34 }, 5)).toBe('undecided')
    expect(judge({ low: 0.94, high: 1.01 }, 9)).toBe('undecided')
  })

  test("a claim's own margin widens only what same means, and its words say which margin", () => {
    expect(judge({ low: 0.96, high: 1.08 }, 7)).toBe('undecided')
    expect(judge({ low: 0.96, high: 1.08 }, 7, 10)).toBe('same')
    expect(judge({ low: 0.95, high: 1.12 }, 7, 10)).toBe('undecided')
    // 1 ÷ 1.1, not 0.9: A ÷ B and B ÷ A still agree at the wider margin.
    expect(judge({ low: 0.905, high: 0.95 }, 7, 10)).toBe('undecided')
    expect(judge({ low: 0.85, high: 0.9 }, 7, 10)).toBe('worse')
    const rounds = [1.0, 1.05, 0.97, 1.04, 1.02, 1.03, 0.99]
    const wide = summarizeRatio({ against: 'b', label: 'b', margin: 10 }, rounds)
    expect(wide).toMatchObject({ verdict: 'same', margin: 10 })
    expect(verdictText(wide)).toBe('same (±10 %)')
    expect(rejudge(wide)).toEqual(wide)
    // The suites' own margin leaves no trace in the ratio, so results files stay as they were.
    expect(summarizeRatio({ against: 'b', label: 'b', margin: MIN_EFFECT_PCT }, rounds)).not.toHaveProperty(
      'margin',
    )
  })

  test('undecided straddles a margin and says where it leans; too few rounds decide nothing', () => {
    const leaning = summarizeRatio({ against: 'b', label: 'b' }, [0.9, 0.92, 0.93, 0.97, 0.99, 0.91, 0.94])
    expect(leaning.verdict).toBe('undecided')
    expect(verdictText(leaning)).toBe('undecided, leans worse')
    expect(judge({ low: 1.9, high: 2.1 }, 4)).toBe('undecided')
    expect(verdictText(summarizeRatio({ against: 'b', label: 'b' }, [2, 2, 2]))).toBe('undecided (n = 3)')
  })

  test('digits follow the interval: magnitude and interval always printed, with the verdict', () => {
    expect(formatMagnitude({ value: 0.736, low: 0.5, high: 0.9 })).toBe('0.7× [0.5–0.9]')
    expect(formatMagnitude({ value: 0.031, low: 0.026, high: 0.034 })).toBe('0.031× [0.026–0.034]')
    expect(formatMagnitude({ value: 4.916, low: 4.51, high: 5.0 })).toBe('4.9× [4.5–5.0]')
    expect(
      formatRatio(summarizeRatio({ against: 'b', label: 'b' }, [0.03, 0.031, 0.032, 0.029, 0.031])),
    ).toMatch(/× \[.*\] worse$/)
    expect(verdictText(summarizeRatio({ against: 'b', label: 'b' }, [1, 1.01, 0.99, 1, 1.005]))).toBe(
      `same (±${MIN_EFFECT_PCT} %)`,
    )
  })
})

describe('intervals that hold from run to run', () => {
  test('the interval covers the next run’s median in ≥ 85 % of runs, run-to-run shift included (an interval of this run’s median alone does not)', () => {
    const random = seededRandom(11)
    let covered = 0
    let coveredByThisRun = 0
    const trials = 200
    for (let i = 0; i < trials; i++) {
      const a = simulatedRun(random, 0.8, 7)
      const b = simulatedRun(random, 0.8, 7)
      const { low, high } = ratioInterval(a)
      const next = [...b].sort((x, y) => x - y)[3] as number
      if (low <= next && next <= high) covered++
      const own = medianInterval(a)
      if (own.low <= next && next <= own.high) coveredByThisRun++
    }
    expect(covered / trials).toBeGreaterThanOrEqual(0.85)
    expect(coveredByThisRun / trials).toBeLessThan(0.85)
  })

  test('at the 5 rounds a quick run starts with, Student’s t stretch keeps the interval near its 95 % (the bare bootstrap falls short)', () => {
    // Student's t 97.5 % quantiles from the tables, within 0.3 %.
    for (const [df, t] of [
      [4, 2.776],
      [6, 2.447],
      [15, 2.131],
      [60, 2.0],
    ] as const)
      expect(Math.abs(t975(df) / t - 1)).toBeLessThan(0.003)
    const random = seededRandom(23)
    let [stretched, bare] = [0, 0]
    const trials = 400
    for (let i = 0; i < trials; i++) {
      const a = simulatedRun(random, 0.8, 5)
      const next = [...simulatedRun(random, 0.8, 5)].sort((x, y) => x - y)[2] as number
      const { low, high } = ratioInterval(a, i + 1)
      if (low <= next && next <= high) stretched++
      // The same interval without the stretch, about the same centre (the rounds' median).
      const center = Math.log([...a].sort((x, y) => x - y)[2] as number)
      const k = smallSampleFactor(5)
      const [bareLow, bareHigh] = [Math.log(low), Math.log(high)].map((x) =>
        Math.exp(center + (x - center) / k),
      )
      if ((bareLow as number) <= next && next <= (bareHigh as number)) bare++
    }
    expect(stretched / trials).toBeGreaterThanOrEqual(0.9)
    expect(bare / trials).toBeLessThan(stretched / trials - 0.03)
  })

  test('A/A controls raced until decided (looking after every round) read better or worse in ≤ 5 % of runs', async () => {
    const random = seededRandom(5)
    const verdicts: string[] = []
    const unraced: string[] = []
    for (let trial = 0; trial < 60; trial++) {
      const results = await runRounds({
        candidates: ['control'],
        budget: { rounds: 5, race: { maxRounds: 16, budgetMs: Number.POSITIVE_INFINITY } },
        seed: trial,
        measure: async () => Math.exp(0.05 * normal(random)),
        onError: () => {},
        // The harness's own pending rule, futility stop included.
        comparisons: (_, r) => [
          { ratio: summarizeRatio({ against: '', label: '' }, (r.get('control') ?? []) as number[]) },
        ],
      })
      const rounds = (results.get('control') ?? []) as number[]
      verdicts.push(summarizeRatio({ against: '', label: '' }, rounds).verdict)
      unraced.push(summarizeRatio({ against: '', label: '' }, rounds.slice(0, 5)).verdict)
    }
    const wrong = verdicts.filter((v) => v === 'better' || v === 'worse').length
    expect(wrong / verdicts.length).toBeLessThanOrEqual(0.05)
    // And racing pays: at ±5 % per round, about a third of the controls end decided as "same"; at the 5
    // rounds they started with, almost none could.
    const same = (list: string[]) => list.filter((v) => v === 'same').length / list.length
    expect(same(verdicts)).toBeGreaterThan(0.3)
    expect(same(verdicts)).toBeGreaterThan(same(unraced) + 0.3)
  })
})

describe('racing rounds', () => {
  test('a ratio more rounds could decide keeps racing; one they could not is given none (futility)', () => {
    const q = (rounds: number[]) => summarizeRatio({ against: '', label: '' }, rounds)
    // Five rounds around 0.97 with ±3 %: sixteen rounds would narrow it inside ±5 %.
    expect(decidable(q([0.94, 0.97, 1.0, 0.96, 0.98]), 16)).toBe(true)
    // Five rounds spread ±40 % around 1: even sixteen could not fit it inside the margin.
    expect(decidable(q([0.6, 1.4, 1.0, 0.7, 1.3]), 16)).toBe(false)
    // One disturbed round among steady ones: the median's interval barely moves, so racing goes on.
    expect(decidable(q([0.98, 0.99, 1.015, 0.999, 1.36]), 16)).toBe(true)
    // A true ratio on the margin itself (1 ÷ 1.05 ≈ 0.952) cannot be decided at any width it could reach.
    expect(decidable(q([0.932, 0.962, 0.952, 0.942, 0.962]), 16)).toBe(false)
    // Fewer rounds than a verdict needs: always worth another.
    expect(decidable(q([0.5, 2]), 16)).toBe(true)
    expect(decidable(q([0.94, 0.97, 1.0, 0.96, 0.98]), 5)).toBe(false)
  })

  test('extra rounds go only to pending candidates, stay paired by index, and stop at maxRounds', async () => {
    const calls: string[] = []
    const results = await runRounds({
      candidates: ['base', 'x', 'y'],
      budget: { rounds: 2, race: { maxRounds: 4, budgetMs: Number.POSITIVE_INFINITY } },
      seed: 3,
      measure: async (c, round) => {
        calls.push(`${c}${round}`)
        return round
      },
      onError: () => {},
      // x's one comparison has too few rounds to decide, so it races, with the base it divides by.
      comparisons: (c) =>
        c === 'x'
          ? [{ ratio: summarizeRatio({ against: '', label: '' }, [0.5, 2]), partners: ['base'] }]
          : [],
    })
    expect(results.get('x')).toEqual([0, 1, 2, 3])
    expect(results.get('base')).toEqual([0, 1, 2, 3])
    expect(results.get('y')).toEqual([0, 1, undefined, undefined])
    expect(calls.filter((c) => c.startsWith('y'))).toHaveLength(2)
  })

  test('futility is judged at the rounds the allowance pays for, not at maxRounds', async () => {
    // Sixteen rounds of this spread could decide it (ten could), seven could not.
    const five = [0.92, 0.98, 1.03, 0.95, 1.0]
    expect(decidable(summarizeRatio({ against: '', label: '' }, five), 16)).toBe(true)
    expect(decidable(summarizeRatio({ against: '', label: '' }, five), 7)).toBe(false)
    const race = (budgetMs: number) =>
      runRounds({
        candidates: ['x'],
        budget: { rounds: 5, race: { maxRounds: 16, budgetMs } },
        seed: 1,
        measure: async (_x, round) => {
          await new Promise((resolve) => setTimeout(resolve, 10))
          return five[round % 5] as number
        },
        onError: () => {},
        comparisons: (_, r) => [
          { ratio: summarizeRatio({ against: '', label: '' }, r.get('x') as number[]) },
        ],
      })
    // An allowance of about two rounds (each ≥ 10 ms): none is spent on a ratio they cannot decide.
    expect((await race(25)).get('x')).toHaveLength(5)
    expect((await race(Number.POSITIVE_INFINITY)).get('x')?.length).toBeGreaterThan(5)
  })

  test('no pending candidate ends the race at once', async () => {
    let calls = 0
    await runRounds({
      candidates: ['a'],
      budget: { rounds: 5, race: { maxRounds: 50, budgetMs: Number.POSITIVE_INFINITY } },
      seed: 1,
      measure: async () => ++calls,
      onError: () => {},
      comparisons: () => [],
    })
    expect(calls).toBe(5)
  })
})

describe('A/A controls', () => {
  test('a control that reads different withholds every verdict of its suite, and says why', () => {
    const control = row({
      label: 'x [A/A control]',
      flags: [{ kind: 'control' }],
      ratios: [summarizeRatio({ against: 'x', label: 'x' }, [0.8, 0.82, 0.79, 0.81, 0.8])],
    })
    const finding = row({
      candidate: 'y',
      ratios: [summarizeRatio({ against: 'x', label: 'x' }, [0.5, 0.52, 0.49, 0.51, 0.5])],
    })
    const [kept, withheld] = decideRows([control, finding])
    expect(kept?.ratios[0]?.verdict).toBe('worse')
    expect(withheld?.ratios[0]?.verdict).toBe('undecided')
    expect(withheld?.ratios[0]?.withheld).toBe(true)
    expect(verdictText(withheld?.ratios[0] as Ratio)).toMatch(/withheld/)
    const same = row({
      flags: [{ kind: 'control' }],
      ratios: [summarizeRatio({ against: 'x', label: 'x' }, [1, 1.01, 0.99, 1, 1])],
    })
    expect(decideRows([same, finding])[1]?.ratios[0]?.verdict).toBe('worse')
  })

  test('a ratio from a file of the earlier rule is judged again from its rounds', () => {
    const old = {
      against: 'b',
      baseline: 'b',
      value: 0.03,
      low: 0.02,
      high: 0.04,
      rounds: [0.03, 0.031, 0.029, 0.03, 0.032],
    }
    expect(rejudge({ ...old, verdict: 'undecided' }).verdict).toBe('worse')
  })
})
