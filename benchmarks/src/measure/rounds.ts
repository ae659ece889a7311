import type { Ratio } from '../types.js'
import { type Interval, median, medianInterval, seededRandom, shuffle } from './stats.js'

/**
 * Fewer rounds than this and a ratio is not printed: with 4 rounds the range of the rounds covers the
 * median only 87.5 % of the time, and one disturbed round decides the figure.
 */
export const MIN_ROUNDS = 5

/**
 * R rounds, every candidate once per round, each round in a fresh random order: a disturbance (another
 * process, a frequency change, a GC left behind) lands on a random candidate instead of on whoever always
 * runs after the same neighbour. Seeded, so a run's schedule can be reproduced.
 */
export function shuffledRounds<T>(candidates: readonly T[], rounds: number, seed: number): T[][] {
  if (!Number.isSafeInteger(rounds) || rounds < 1)
    throw new RangeError(`rounds must be a positive integer, got ${rounds}`)
  const random = seededRandom(seed)
  return Array.from({ length: rounds }, () => shuffle(candidates, random))
}

/**
 * Runs `measure` for every candidate in every round (in the shuffled order) and returns each candidate's
 * results in round order. A measurement that throws leaves `undefined` in its round (reported through
 * `onError`), so the other rounds stay paired with their baseline by index.
 */
export async function runRounds<C, R>(
  candidates: readonly C[],
  rounds: number,
  seed: number,
  measure: (candidate: C, round: number) => Promise<R>,
  onError: (candidate: C, error: unknown) => void,
): Promise<Map<C, (R | undefined)[]>> {
  const results = new Map<C, (R | undefined)[]>(candidates.map((c) => [c, Array.from({ length: rounds })]))
  for (const [round, order] of shuffledRounds(candidates, rounds, seed).entries()) {
    for (const candidate of order) {
      try {
        ;(results.get(candidate) as (R | undefined)[])[round] = await measure(candidate, round)
      } catch (error) {
        onError(candidate, error)
      }
    }
  }
  return results
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
 * The widest 95 % interval, as ± percent of the median, that still makes a figure. On this kind of
 * machine a ratio whose interval was wider moved by more than ±5 % between runs of the same commit,
 * so printing its median would promise a precision the next run does not keep.
 */
export const MAX_HALF_WIDTH_PCT = 10

/** Half the interval's width as a percentage of the median. */
export function halfWidthPct(value: number, { low, high }: Interval): number {
  return value > 0 ? (100 * (high - low)) / 2 / value : Number.POSITIVE_INFINITY
}

/**
 * Whether a ratio may be printed as a number. Too few rounds, or an interval wider than
 * ±MAX_HALF_WIDTH_PCT: undecided. An interval that covers 1, or a median within the suite's A/A noise
 * floor (percent): no difference, whatever the ratio reads.
 */
export function verdictOf(
  value: number,
  interval: Interval,
  rounds: number,
  noiseFloorPct?: number,
): Ratio['verdict'] {
  if (rounds < MIN_ROUNDS) return 'undecided'
  if (halfWidthPct(value, interval) > MAX_HALF_WIDTH_PCT) return 'undecided'
  if (interval.low <= 1 && interval.high >= 1) return 'no difference'
  if (noiseFloorPct !== undefined && Math.abs(value - 1) * 100 <= noiseFloorPct) return 'no difference'
  return 'different'
}

/** Why a ratio is undecided, in a few characters: "n = 3" (too few rounds) or "±14 %" (too wide). */
export function undecidedReason(q: Ratio): string {
  return q.rounds.length < MIN_ROUNDS ? `n = ${q.rounds.length}` : `±${Math.ceil(halfWidthPct(q.value, q))} %`
}

/** The median of per-round ratios with its 95 % bootstrap interval, its verdict, and the rounds for `compare`. */
export function summarizeRatio(baseline: string, rounds: readonly number[], noiseFloorPct?: number): Ratio {
  if (rounds.length === 0) return { baseline, value: 0, low: 0, high: 0, rounds: [], verdict: 'undecided' }
  const interval = medianInterval(rounds)
  const value = median(rounds)
  const verdict = verdictOf(value, interval, rounds.length, noiseFloorPct)
  return { baseline, value, ...interval, rounds: [...rounds], verdict }
}

/**
 * A ratio to a physical limit or a floor (cores ÷ single-hash time, the cheapest possible string) cannot
 * exceed 1; one whose whole interval lies above 1 says the harness mismeasured, not that the limit fell.
 */
export function limitFlags(ratio: Ratio | undefined): string[] {
  return ratio && ratio.rounds.length >= MIN_ROUNDS && ratio.low > 1
    ? [`measurement error: above its limit (${ratio.low.toFixed(2)}–${ratio.high.toFixed(2)})`]
    : []
}

/**
 * The A/A control's farthest distance from 1 in percent (median or interval end): identical code read
 * this far apart in this run, so a smaller difference between two candidates is not a finding.
 */
export function noiseFloorPct(control: Ratio): number {
  return 100 * Math.max(Math.abs(control.high - 1), Math.abs(1 - control.low), Math.abs(control.value - 1))
}
