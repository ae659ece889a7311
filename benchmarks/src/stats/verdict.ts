/**
 * The one place where a ratio becomes an answer: the interval and the verdict, as data (an enum, as
 * Criterion.rs's compare_to_threshold returns one). Every suite, `compare`, `spread` and `figures` take
 * them from here; only src/report/words.ts says them.
 *
 * The rule separates direction from precision, as Criterion.rs's change test and benchstat do:
 * - better / worse: the whole 95 % interval lies beyond the minimum effect (MIN_EFFECT_PCT);
 * - same: the whole interval lies inside it (an equivalence test: two one-sided tests at the margin,
 *   Schuirmann 1987), never merely because it covers 1;
 * - undecided: only when the interval straddles a margin, and then it says which side it leans to.
 * A wide interval wholly beyond the margin is still a decided direction; precision only sets how many
 * digits are printed.
 */
import type { Flag, Ratio, Verdict } from '../model/types.js'
import { type Interval, median, medianInPlace, seededRandom } from './stats.js'

/**
 * The smallest difference reported as better or worse, in percent: runs of one commit put a ratio's
 * medians up to ±5 % apart (each process has its own code and heap layout, the CPU's speed phase moves),
 * so a smaller difference would not repeat.
 */
export const MIN_EFFECT_PCT = 5

/** Fewer rounds than this and a ratio is undecided whatever it reads: one disturbed round would decide it. */
export const MIN_ROUNDS = 5

const RESAMPLES = 2000

/**
 * Where the next run's median of these rounds will fall, 95 %: a bootstrap prediction interval (Efron &
 * Tibshirani 1993, ch. 13 and §17.6): the rounds' median plus the distribution of the difference of two
 * independent resampled medians, in log space so 0.5× and 2× are equally far from 1. About √2 wider than
 * an interval of this run's median, because the next run has a median of its own. Rounds are the unit
 * resampled, never the samples inside one round; seeded, so the same rounds give the same interval.
 *
 * A percentile bootstrap of few rounds is too narrow (Hesterberg 2015, "What teachers should know about
 * the bootstrap", §3.3), so the shifts are stretched by t(n − 1) ÷ z, as Student's t corrects a small
 * sample's normal interval: 1.42× at 5 rounds, 1.09× at 16. A shift slower than the rounds (the CPU's
 * phase moving the baseline against every candidate for minutes) no resampling can show: a suite whose
 * rounds take seconds spreads them over the run instead (`Suite.spreadsRounds`).
 */
export function ratioInterval(rounds: readonly number[], seed = 1): Interval {
  const positive = rounds.filter((r) => r > 0 && Number.isFinite(r))
  if (positive.length === 0) return { low: Number.NaN, high: Number.NaN }
  if (positive.length === 1) return { low: positive[0] as number, high: positive[0] as number }
  const key = `${seed}:${positive.join(',')}`
  const known = intervals.get(key)
  if (known) return known
  const logs = Float64Array.from(positive, Math.log)
  const center = median([...logs])
  const random = seededRandom(seed)
  const n = logs.length
  const sample = new Float64Array(n)
  const resampledMedian = () => {
    for (let i = 0; i < n; i++) sample[i] = logs[Math.floor(random() * n)] as number
    return medianInPlace(sample)
  }
  const shifts = new Float64Array(RESAMPLES)
  for (let b = 0; b < RESAMPLES; b++) shifts[b] = resampledMedian() - resampledMedian()
  shifts.sort()
  const stretch = smallSampleFactor(n)
  const interval = {
    low: Math.exp(center + stretch * (shifts[Math.floor(0.025 * RESAMPLES)] as number)),
    high: Math.exp(center + stretch * (shifts[Math.ceil(0.975 * RESAMPLES) - 1] as number)),
  }
  if (intervals.size >= 10_000) intervals.clear()
  intervals.set(key, interval)
  return interval
}

const Z_975 = 1.959964

/**
 * Student's t 97.5 % quantile with `df` degrees of freedom, from the normal one by the Cornish–Fisher
 * expansion (Abramowitz & Stegun 26.7.5): within 0.3 % of the tables from 4 degrees of freedom up.
 */
export function t975(df: number): number {
  const z = Z_975
  return (
    z +
    (z ** 3 + z) / (4 * df) +
    (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2) +
    (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3)
  )
}

/** How much wider than the normal approximation a 95 % interval of `rounds` values is: t(n − 1) ÷ z. */
export const smallSampleFactor = (rounds: number) => (rounds < 2 ? 1 : t975(rounds - 1) / Z_975)

/** Intervals already computed: reporters, `compare` and the racing loop ask for the same rounds again. */
const intervals = new Map<string, Interval>()

/**
 * The margin's ends for a margin in percent. The lower is 1 ÷ upper, not 1 − 5 %: symmetric in log
 * space, so A ÷ B reads worse exactly when B ÷ A reads better.
 */
const marginEnds = (pct: number) => [1 + pct / 100, 1 / (1 + pct / 100)] as const
export const [UPPER, LOWER] = marginEnds(MIN_EFFECT_PCT)

/**
 * The verdict of an interval of a ratio oriented so > 1 is better (see the rule at the top of this
 * file), at MIN_EFFECT_PCT unless a wider equivalence margin is asked for (a README claim's "same within
 * ±10 %", where the question is whether a difference is smaller than one a source reported).
 */
export function judge(interval: Interval, rounds: number, marginPct = MIN_EFFECT_PCT): Verdict {
  const [upper, lower] = marginEnds(marginPct)
  if (rounds < MIN_ROUNDS || !(interval.low > 0)) return 'undecided'
  if (interval.low >= upper) return 'better'
  if (interval.high <= lower) return 'worse'
  if (interval.low > lower && interval.high < upper) return 'same'
  return 'undecided'
}

/**
 * The prediction interval's half-width, in log space, per unit of the rounds' standard deviation
 * divided by √rounds, for many rounds: 1.96 (95 %) × √2 (two medians) × 1.2533 (a median's standard
 * error over a mean's, normal data); `ratioInterval` stretches it by `smallSampleFactor` for few rounds.
 */
const HALF_WIDTH_PER_SD = Z_975 * Math.SQRT2 * 1.2533

/**
 * Whether more rounds, up to `maxRounds`, could still decide an undecided ratio: with the rounds' spread
 * so far, the interval at `maxRounds` would fit beside or inside the margin on some side, the median
 * allowed to move by a standard error. One that cannot (a true ratio on the margin) gets no extra rounds
 * (futility stopping, as in group-sequential designs: it never makes a verdict more likely, only a round
 * less wasted).
 */
export function decidable(q: Ratio, maxRounds: number): boolean {
  const n = q.rounds.length
  if (n >= maxRounds) return false
  if (n < MIN_ROUNDS) return true
  const logs = q.rounds.filter((r) => r > 0).map(Math.log)
  if (logs.length < 2 || !(q.value > 0)) return false
  // The smaller of the standard deviation and the scaled median absolute deviation (× 1.4826): one
  // disturbed round barely moves a median, so it must not stop the race; on steady rounds they agree.
  const mean = logs.reduce((sum, x) => sum + x, 0) / logs.length
  const sdOfMean = Math.sqrt(logs.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (logs.length - 1))
  const mid = median(logs)
  const sd = Math.min(sdOfMean, 1.4826 * median(logs.map((x) => Math.abs(x - mid))))
  // Three quarters of the expected width: a race stops at the first round that decides, and intervals
  // of one width vary by about that much from run to run, so a ratio is given up only when even a
  // narrow draw could not decide it.
  const halfWidth = (0.75 * HALF_WIDTH_PER_SD * smallSampleFactor(maxRounds) * sd) / Math.sqrt(maxRounds)
  // The median itself may still move by about one standard error (1.2533 σ/√n) as rounds are added.
  const slack = (1.2533 * sd) / Math.sqrt(n)
  const center = Math.log(q.value)
  const [upper, lower] = [Math.log(UPPER), Math.log(LOWER)]
  const middle = (upper + lower) / 2
  const nearestMiddle = Math.min(center + slack, Math.max(center - slack, middle))
  const same = Math.min(upper - nearestMiddle, nearestMiddle - lower) >= halfWidth
  const better = center + slack - upper >= halfWidth
  const worse = lower - (center - slack) >= halfWidth
  return same || better || worse
}

/** The side an undecided ratio leans to, from its median. */
export function leanOf(q: Pick<Ratio, 'value' | 'margin'>): 'better' | 'worse' | 'same' {
  const [upper, lower] = marginEnds(q.margin ?? MIN_EFFECT_PCT)
  return q.value >= upper ? 'better' : q.value <= lower ? 'worse' : 'same'
}

/** What a ratio divides by: the baseline's id and label, and the margin the comparison is judged at. */
export interface Baseline {
  readonly against: string
  readonly label: string
  /** Percent; only for a comparison judged at a margin of its own. */
  readonly margin?: number
}

/** The median of per-round ratios with its prediction interval and verdict; `rounds` are kept for `compare`. */
export function summarizeRatio(to: Baseline, rounds: readonly number[]): Ratio {
  const clean = rounds.filter((r) => r > 0 && Number.isFinite(r))
  const own = to.margin !== undefined && to.margin !== MIN_EFFECT_PCT ? { margin: to.margin } : {}
  const named = { against: to.against, baseline: to.label }
  if (clean.length === 0)
    return { ...named, value: 0, low: 0, high: 0, rounds: [], verdict: 'undecided', ...own }
  const interval = ratioInterval(clean)
  return {
    ...named,
    value: median(clean),
    ...interval,
    rounds: [...clean],
    verdict: judge(interval, clean.length, to.margin),
    ...own,
  }
}

/** A ratio judged again by the current rule from its own rounds: how results files of any age are read. */
export function rejudge(q: Ratio): Ratio {
  return summarizeRatio({ against: q.against, label: q.baseline, margin: q.margin }, q.rounds)
}

/**
 * The ratio of `candidate` to `baseline` in each round where both were measured, oriented so > 1 is
 * better: per round, so the machine's state during that round cancels out of the ratio.
 */
export function perRoundRatios(
  candidate: readonly (number | undefined)[],
  baseline: readonly (number | undefined)[],
  higherIsBetter: boolean,
): number[] {
  return candidate.flatMap((value, i) => {
    const base = baseline[i]
    if (!(value !== undefined && base !== undefined && value > 0 && base > 0)) return []
    return [higherIsBetter ? value / base : base / value]
  })
}

/**
 * Whether a ratio reaches a goal (e.g. ≥ 98 % of a ceiling): better (reached) or worse (missed) only
 * when the whole interval lies on one side of it, with the rounds a decided verdict needs.
 */
export function goalVerdict(q: Ratio, goal: number): Verdict {
  if (q.rounds.length < MIN_ROUNDS) return 'undecided'
  if (q.low >= goal) return 'better'
  if (q.high < goal) return 'worse'
  return 'undecided'
}

/**
 * A ratio to a physical limit or a floor (the ids ceiling, the cheapest possible string) cannot exceed 1,
 * nor a speed-up min(K, cores); one whose whole interval lies above its limit says the harness
 * mismeasured, not that the limit fell.
 */
export function limitFlags(ratio: Ratio | undefined, limit = 1): Flag[] {
  return ratio && ratio.rounds.length >= MIN_ROUNDS && ratio.low > limit
    ? [{ kind: 'above-limit', limit, low: ratio.low, high: ratio.high }]
    : []
}

/** A ratio's rounds divided by `by` (a speed-up read against its limit), judged again. */
export function scaledRatio(q: Ratio, by: number, label: string): Ratio {
  return rejudge({ ...q, baseline: label, rounds: q.rounds.map((r) => r / by) })
}
