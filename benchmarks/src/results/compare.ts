import { mannWhitney, median, shiftInterval } from '../measure/stats.js'
import { MIN_ROUNDS, ratioInterval } from '../measure/verdict.js'
import type { Figure, Row } from '../types.js'
import type { ResultsFile } from './results.js'

/** What is compared for one row: the per-round values of its first ratio (or of its absolute figure). */
export interface Compared extends Figure {
  readonly rounds: readonly number[]
  readonly higherIsBetter: boolean
  readonly unit: string
}

export type Decision = 'regression' | 'worse' | 'better' | 'no change' | 'undecided'

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
  /** The 95 % interval of that change, in percent of the before median (the rank test's shift interval). */
  readonly lowPct: number
  readonly highPct: number
  /** Two-sided Mann–Whitney p-value over the pooled per-round values (1 when undecided). */
  readonly p: number
  readonly decision: Decision
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
  /**
   * Suites whose every round runs in a fresh process (the Suite's `roundsAreProcesses`). The rounds of
   * any other suite share one process per run, so their spread cannot show the shift between runs.
   */
  readonly processRounds: ReadonlySet<string>
}

export interface Comparison {
  readonly changes: readonly Change[]
  /** Row keys present on only one side (new or removed candidates/groups). */
  readonly onlyBefore: readonly string[]
  readonly onlyAfter: readonly string[]
}

const keyOf = (r: Row) => `${r.suite} · ${r.group} · ${r.candidate} [${r.unit}]`

/**
 * By default a row is compared through the per-round ratios to the baseline of its own rounds: a slower
 * or busier machine moves both sides of every ratio and cancels out, so CI runners of different speeds
 * can be compared. `absolute` compares the per-round raw values.
 */
function figureOf(row: Row, absolute: boolean): Compared | undefined {
  const ratio = row.ratios[0]
  if (!absolute) {
    if (!ratio) return undefined
    return { value: ratio.value, rounds: ratio.rounds, higherIsBetter: true, unit: `× vs ${ratio.baseline}` }
  }
  return { value: row.value, rounds: row.rounds ?? [], higherIsBetter: row.higherIsBetter, unit: row.unit }
}

/** Each side's per-run medians of a row. */
export interface RunMedians {
  readonly before: readonly number[]
  readonly after: readonly number[]
  /** Every round ran in a fresh process (the suite's `roundsAreProcesses`), so one run a side may decide. */
  readonly processRounds?: boolean
}

/**
 * The decision for one row, as benchstat makes it: the per-round values of both sides (several results
 * files per side are pooled) go through a Mann–Whitney U test; a change is reported only when p < alpha,
 * the medians differ by more than the threshold, AND the after side's median lies outside the before
 * side's interval for the next run's median (src/measure/verdict.ts). That last test is the one that
 * matters on a shared machine: two runs of one commit read uid-safe's ratio 28.7 % apart with every round
 * of one run above every round of the other (p = 0.009), a shift between processes that a rank test over
 * rounds cannot tell from a change, but that each run's own spread predicts. Fewer than MIN_ROUNDS rounds
 * on a side: undecided.
 *
 * One run a side has nothing else to show what moves between runs minutes apart (the machine's phase), so
 * there the change's 95 % interval (the rank test's shift interval) must lie wholly beyond the threshold,
 * Criterion.rs's rule and the verdicts': wholly inside is no change, across it undecided. One run against
 * one of a commit read id-pooled-bytes 8.6 % lower, five rounds a side wholly separated (p = 0.008, the
 * least five rounds can give), its interval [−14.4 %, −3.9 %].
 *
 * When a row's rounds all ran in one process per run, their spread holds no shift between runs at all:
 * three runs of one commit read the onepw chain's pure-JS rows 7–17 % apart with p = 0.008. Such a row
 * needs two or more runs a side. With two or more runs on the before side, the runs are the replication:
 * the after side's median and each of its run medians must lie beyond the range of the before side's run
 * medians, all on one side. A code change moves every run, where a load on the machine for some seconds
 * moves one: three runs against three of one commit read hash-pbkdf2's speed-up at K = 2 as 1.94 → 1.37
 * (p = 0.003), two after runs at 1.34 when the other core was busy, the third at 1.95.
 */
export function decide(
  before: readonly number[],
  after: readonly number[],
  higherIsBetter: boolean,
  options: Pick<CompareOptions, 'thresholdPct' | 'alpha'>,
  runs?: RunMedians,
): Pick<Change, 'deltaPct' | 'lowPct' | 'highPct' | 'p' | 'decision' | 'reason'> {
  const [a, b] = [median(before), median(after)]
  const percent = (shift: number) => (shift / a) * 100
  const shift = shiftInterval(before, after, 1 - CHANGE_CONFIDENCE)
  const change = { deltaPct: percent(b - a), lowPct: percent(shift.low), highPct: percent(shift.high) }
  if (before.length < MIN_ROUNDS || after.length < MIN_ROUNDS)
    return { ...change, p: 1, decision: 'undecided', reason: `fewer than ${MIN_ROUNDS} rounds a side` }
  if (runs && !runs.processRounds && (runs.before.length < 2 || runs.after.length < 2))
    return { ...change, p: 1, decision: 'undecided', reason: SINGLE_PROCESS_REASON }
  const { p } = mannWhitney(before, after)
  const outside = (value: number, side: readonly number[]) => {
    const { low, high } = ratioInterval(side)
    return value < low || value > high
  }
  // Did the after side land where the before side's rounds (and runs) put the next run's median? With
  // two or more before runs, a change must move the after median and every after run beyond their
  // range, on one side.
  const beyondRuns = ({ before: ran, after: moved }: RunMedians) => {
    const [low, high] = [Math.min(...ran), Math.max(...ran)]
    const afters = [b, ...moved]
    return afters.every((m) => m < low) || afters.every((m) => m > high)
  }
  const replicated = runs !== undefined && runs.before.length >= 2
  const predicted = !outside(b, before) || (replicated && !beyondRuns(runs))
  const t = options.thresholdPct
  const inside = change.lowPct >= -t && change.highPct <= t
  if (!(p < options.alpha) || predicted || (replicated ? Math.abs(change.deltaPct) <= t : inside))
    return { ...change, p, decision: 'no change' }
  if (!replicated && !(change.lowPct > t || change.highPct < -t))
    return { ...change, p, decision: 'undecided', reason: `one run a side, its interval reaches inside ±${t} %` }
  const worse = higherIsBetter ? change.deltaPct < 0 : change.deltaPct > 0
  return { ...change, p, decision: worse ? 'regression' : 'better' }
}

/** The confidence of a change's interval: the verdicts' 95 % (src/measure/verdict.ts), as Criterion.rs's default. */
export const CHANGE_CONFIDENCE = 0.95

/** The rule in one sentence, for help texts and reports. */
export const compareRule = ({ thresholdPct, alpha }: Pick<CompareOptions, 'thresholdPct' | 'alpha'>) =>
  `per row, a Mann–Whitney U test over the per-round ratios; a regression (or better) needs p < ${alpha}, a change beyond ${thresholdPct} % that the before side's spread does not predict, and, one run a side, its ${CHANGE_CONFIDENCE * 100} % interval wholly beyond ±${thresholdPct} %; with several runs, every after run beyond the before runs' range; suites whose rounds share one process are undecided one run against one`

export const SINGLE_PROCESS_REASON =
  'one run a side of rounds that share a process: compare two or more runs a side'

/** Compares the rows of one or more results files per side, pooling each row's rounds across a side's files. */
export function compareResults(
  before: readonly ResultsFile[],
  after: readonly ResultsFile[],
  options: CompareOptions,
): Comparison {
  const pool = (files: readonly ResultsFile[]) => {
    const rows = new Map<string, { row: Row; rounds: number[]; unit: string; runs: number[] }>()
    for (const row of files.flatMap((f) => f.suites.flatMap((s) => s.rows))) {
      const figure = figureOf(row, options.absolute)
      if (!figure) continue
      const key = keyOf(row)
      const seen = rows.get(key)
      // A ratio to a different baseline is a different figure: only the first file's is pooled.
      if (seen && seen.unit !== figure.unit) continue
      rows.set(key, {
        row,
        unit: figure.unit,
        rounds: [...(seen?.rounds ?? []), ...figure.rounds],
        runs: [...(seen?.runs ?? []), ...(figure.rounds.length > 0 ? [median(figure.rounds)] : [])],
      })
    }
    return rows
  }
  const [a, b] = [pool(before), pool(after)]
  const changes: Change[] = []
  for (const [key, old] of a) {
    const now = b.get(key)
    if (!now || now.unit !== old.unit) continue
    const higherIsBetter = options.absolute ? now.row.higherIsBetter : true
    const runs = { before: old.runs, after: now.runs, processRounds: options.processRounds.has(now.row.suite) }
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
  }
}
