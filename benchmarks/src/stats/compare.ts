import { keyText } from '../model/keys.js'
import type { ResultsFile, Row, Verdict } from '../model/types.js'
import { type Interval, mannWhitney, median, shiftInterval } from './stats.js'
import { judge, MIN_EFFECT_PCT, MIN_ROUNDS, ratioInterval } from './verdict.js'

export interface Change {
  readonly key: string
  readonly label: string
  readonly unit: string
  /** Median of each side's pooled rounds. */
  readonly before: number
  readonly after: number
  readonly roundsBefore: number
  readonly roundsAfter: number
  /** (after − before) ÷ before, in percent. */
  readonly deltaPct: number
  /** The 95 % interval of that change, in percent (the rank test's shift interval, of the logarithms for positive values). */
  readonly lowPct: number
  readonly highPct: number
  /** Two-sided Mann–Whitney p-value over the pooled per-round values (1 when undecided). */
  readonly p: number
  /**
   * The change judged as the verdicts are, after against before with "better" meaning better: worse is
   * a regression, same is no change the rule can show; better and worse need the evidence compareRule states.
   */
  readonly verdict: Verdict
  /** Why an undecided row is undecided. */
  readonly reason?: string
}

export interface CompareOptions {
  /** Smallest change, in percent, that counts as a regression (a smaller one is "no change"). */
  readonly thresholdPct: number
  /** Significance level of the rank test. */
  readonly alpha: number
  /** Compare raw values instead of ratios to the same-run baseline (same quiet machine only). */
  readonly absolute: boolean
}

export interface Comparison {
  readonly changes: readonly Change[]
  /** Row keys present on only one side (new or removed candidates/groups). */
  readonly onlyBefore: readonly string[]
  readonly onlyAfter: readonly string[]
  /** Rows on both sides whose figures are not the same quantity (another baseline or unit): not compared. */
  readonly incomparable: readonly { readonly key: string; readonly before: string; readonly after: string }[]
}

/**
 * What is compared for one row: by default the per-round ratios of its first ratio, to the baseline of
 * its own rounds (a slower or busier machine moves both sides and cancels out, so CI runners of different
 * speeds can be compared); `absolute` compares the per-round raw values.
 */
function figureOf(
  row: Row,
  absolute: boolean,
): { rounds: readonly number[]; unit: string; basis: string } | undefined {
  const ratio = row.ratios[0]
  if (absolute) return { rounds: row.rounds ?? [], unit: row.unit, basis: row.unit }
  return ratio && { rounds: ratio.rounds, unit: `× vs ${ratio.baseline}`, basis: `× ${ratio.against}` }
}

/** Each side's per-run medians of a row. */
export interface RunMedians {
  readonly before: readonly number[]
  readonly after: readonly number[]
  /** Every round ran in a fresh process (the suite's `roundsAreProcesses`), so one run a side may decide. */
  readonly processRounds?: boolean
}

/**
 * The decision for one row. The per-round values of both sides (several results files per side are
 * pooled) go through a Mann–Whitney U test, as benchstat does, and a change is decided as a verdict is
 * (src/measure/verdict.ts) and as Criterion.rs decides one: its 95 % interval (the rank test's shift
 * interval) wholly beyond the threshold is a regression or better, wholly inside it no change, across it
 * undecided.
 *
 * Rounds do not show everything that moves between runs (two runs of one commit can differ with every
 * round of one above every round of the other), so a change must also leave what the before side
 * predicts: the after median outside the before side's interval for the next run's median, asked both
 * ways with one run a side so a pair reads alike in either order. With two or more before runs, the runs
 * are the replication: the after median and every after run's median must lie beyond the range of the
 * before runs' medians, all on one side. A code change moves every run, where a load on the machine for
 * some seconds moves one.
 *
 * When a row's rounds all ran in one process per run, their spread holds no shift between runs at all,
 * so such a row needs two or more runs a side. Fewer than MIN_ROUNDS rounds on a side: undecided.
 */
export function decide(
  before: readonly number[],
  after: readonly number[],
  higherIsBetter: boolean,
  options: Pick<CompareOptions, 'thresholdPct' | 'alpha'>,
  runs?: RunMedians,
): Pick<Change, 'deltaPct' | 'lowPct' | 'highPct' | 'p' | 'verdict' | 'reason'> {
  const [a, b] = [median(before), median(after)]
  // The interval of after ÷ before: from the shift of the logarithms, so that a change and its reverse
  // read alike (+5 % one way is −4.76 % the other, as the verdicts' margin is), or, for values that are
  // not all positive, from the shift itself over the before median.
  const ratios = [...before, ...after].every((v) => v > 0)
  const alpha = 1 - CHANGE_CONFIDENCE
  const interval = ratios
    ? mapInterval(shiftInterval(before.map(Math.log), after.map(Math.log), alpha), Math.exp)
    : mapInterval(shiftInterval(before, after, alpha), (d) => 1 + d / a)
  const change = {
    deltaPct: ((b - a) / a) * 100,
    lowPct: (interval.low - 1) * 100,
    highPct: (interval.high - 1) * 100,
  }
  if (before.length < MIN_ROUNDS || after.length < MIN_ROUNDS)
    return { ...change, p: 1, verdict: 'undecided', reason: `fewer than ${MIN_ROUNDS} rounds a side` }
  if (runs && !runs.processRounds && (runs.before.length < 2 || runs.after.length < 2))
    return { ...change, p: 1, verdict: 'undecided', reason: SINGLE_PROCESS_REASON }
  const { p } = mannWhitney(before, after)
  const outside = (value: number, side: readonly number[]) => {
    const { low, high } = ratioInterval(side)
    return value < low || value > high
  }
  // What the before side predicts: its interval for the next run's median (one run a side, asked both
  // ways) and, with two or more before runs, their range, which every after run must leave on one side.
  const beyondRuns = ({ before: ran, after: moved }: RunMedians) => {
    const [low, high] = [Math.min(...ran), Math.max(...ran)]
    const afters = [b, ...moved]
    return afters.every((m) => m < low) || afters.every((m) => m > high)
  }
  const replicated = runs !== undefined && runs.before.length >= 2
  const predicted = !outside(b, before) || (replicated ? !beyondRuns(runs) : !outside(a, after))
  // The change judged as a ratio is: after ÷ before, "better" meaning higher.
  const verdict = judge(interval, Math.min(before.length, after.length), options.thresholdPct)
  if (!(p < options.alpha) || predicted || verdict === 'same') return { ...change, p, verdict: 'same' }
  if (verdict === 'undecided')
    return {
      ...change,
      p,
      verdict: 'undecided',
      reason: `its interval reaches inside ±${options.thresholdPct} %`,
    }
  const worse = higherIsBetter ? verdict === 'worse' : verdict === 'better'
  return { ...change, p, verdict: worse ? 'worse' : 'better' }
}

const mapInterval = ({ low, high }: Interval, f: (x: number) => number): Interval => ({
  low: f(low),
  high: f(high),
})

/** compare's defaults: the verdicts' margin, and a 1 % significance level per row. */
export const COMPARE_DEFAULTS = { thresholdPct: MIN_EFFECT_PCT, alpha: 0.01 } as const

/** The confidence of a change's interval: the verdicts' 95 % (src/measure/verdict.ts), as Criterion.rs's default. */
export const CHANGE_CONFIDENCE = 0.95

/** The rule in one sentence, for help texts and reports. */
export const compareRule = ({ thresholdPct, alpha }: Pick<CompareOptions, 'thresholdPct' | 'alpha'>) =>
  `per row, a Mann–Whitney U test over the per-round ratios; a regression (or better) needs p < ${alpha}, the change's ${CHANGE_CONFIDENCE * 100} % interval wholly beyond ±${thresholdPct} % and the after median outside what the before side predicts (with several runs, every after run beyond the before runs' range); suites whose rounds share one process are undecided one run against one`

export const SINGLE_PROCESS_REASON =
  'one run a side of rounds that share a process: compare two or more runs a side'

/** Each row of one side's files by its key, its rounds pooled across the files. */
function pool(files: readonly ResultsFile[], absolute: boolean) {
  const rows = new Map<string, { row: Row; rounds: number[]; unit: string; basis: string; runs: number[] }>()
  for (const row of files.flatMap((f) => f.suites.flatMap((s) => s.rows))) {
    const figure = figureOf(row, absolute)
    if (!figure) continue
    const key = keyText(row)
    const seen = rows.get(key)
    // A ratio to a different baseline is a different figure: only the first file's is pooled.
    if (seen && seen.basis !== figure.basis) continue
    rows.set(key, {
      row,
      unit: figure.unit,
      basis: figure.basis,
      rounds: [...(seen?.rounds ?? []), ...figure.rounds],
      runs: [...(seen?.runs ?? []), ...(figure.rounds.length > 0 ? [median(figure.rounds)] : [])],
    })
  }
  return rows
}

/** Compares the rows of one or more results files per side, pooling each row's rounds across a side's files. */
export function compareResults(
  before: readonly ResultsFile[],
  after: readonly ResultsFile[],
  options: CompareOptions,
): Comparison {
  const [a, b] = [pool(before, options.absolute), pool(after, options.absolute)]
  const processRounds = new Set(
    after.flatMap((f) => f.suites.filter((s) => s.processRounds).map((s) => s.name)),
  )
  const changes: Change[] = []
  const incomparable: Comparison['incomparable'][number][] = []
  for (const [key, old] of a) {
    const now = b.get(key)
    if (!now) continue
    if (now.basis !== old.basis) {
      incomparable.push({ key, before: old.unit, after: now.unit })
      continue
    }
    const higherIsBetter = options.absolute ? now.row.higherIsBetter : true
    const runs = { before: old.runs, after: now.runs, processRounds: processRounds.has(now.row.suite) }
    changes.push({
      key,
      label: now.row.label,
      unit: now.unit,
      before: median(old.rounds),
      after: median(now.rounds),
      roundsBefore: old.rounds.length,
      roundsAfter: now.rounds.length,
      ...decide(old.rounds, now.rounds, higherIsBetter, options, runs),
    })
  }
  return {
    changes,
    onlyBefore: [...a.keys()].filter((k) => !b.has(k)),
    onlyAfter: [...b.keys()].filter((k) => !a.has(k)),
    incomparable,
  }
}
