/**
 * Interleaved rounds: round 1 runs the candidates A B C …, round 2 … C B A, and so
 * on, so a slow drift over the run (a growing session store, thermal state) lands on every candidate
 * alike instead of on whoever runs last.
 */
export function interleavedRounds<T>(candidates: readonly T[], rounds: number): T[][] {
  if (!Number.isSafeInteger(rounds) || rounds < 1)
    throw new RangeError(`rounds must be a positive integer, got ${rounds}`)
  return Array.from({ length: rounds }, (_, round) =>
    round % 2 === 0 ? [...candidates] : [...candidates].reverse(),
  )
}

/** One measured round of one candidate; a round with errors, timeouts or non-2xx answers is marked. */
export interface RoundSample {
  readonly value: number
  /** Errors + timeouts + non-2xx responses; a non-zero round is kept out of the median. */
  readonly failures: number
}

export interface RoundSummary {
  /** Median over the clean rounds (NaN when none was clean). */
  readonly median: number
  readonly min: number
  readonly max: number
  /** (max − min) / median over the clean rounds, in percent: the run-to-run spread. */
  readonly spreadPct: number
  readonly cleanRounds: number
  readonly markedRounds: number
  /** Errors + timeouts + non-2xx summed over every round, marked ones included. */
  readonly failures: number
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

export function summarizeRounds(samples: readonly RoundSample[]): RoundSummary {
  const clean = samples.filter((sample) => sample.failures === 0).map((sample) => sample.value)
  const mid = median(clean)
  const min = clean.length > 0 ? Math.min(...clean) : Number.NaN
  const max = clean.length > 0 ? Math.max(...clean) : Number.NaN
  return {
    median: mid,
    min,
    max,
    spreadPct: clean.length > 0 && mid > 0 ? ((max - min) / mid) * 100 : Number.NaN,
    cleanRounds: clean.length,
    markedRounds: samples.length - clean.length,
    failures: samples.reduce((sum, sample) => sum + sample.failures, 0),
  }
}

/**
 * Two-sided 95 % Student t critical values t(0.975, df) for df = 1…30 (NIST/SEMATECH e-Handbook of
 * Statistical Methods §1.3.6.7.2); beyond 30 the normal 1.96 is within 2 %.
 */
const T_975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
]

export interface MeanCi {
  readonly mean: number
  /** Half-width of the 95 % confidence interval of the mean (NaN with fewer than two values). */
  readonly halfWidth: number
}

/** Mean of per-round values with its 95 % t-interval: rounds are the independent repetitions. */
export function meanCi(values: readonly number[]): MeanCi {
  const n = values.length
  if (n === 0) return { mean: Number.NaN, halfWidth: Number.NaN }
  const mean = values.reduce((sum, v) => sum + v, 0) / n
  if (n < 2) return { mean, halfWidth: Number.NaN }
  const variance = values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (n - 1)
  return { mean, halfWidth: (T_975[n - 2] ?? 1.96) * Math.sqrt(variance / n) }
}

/** Results files hold numbers only; a figure without a clean round is 0, and its row is flagged. */
export function finite(value: number): number {
  return Number.isFinite(value) ? value : 0
}

export function spreadFields(summary: RoundSummary): Record<string, number> {
  return {
    min: finite(summary.min),
    max: finite(summary.max),
    'spread %': finite(summary.spreadPct),
    'clean rounds': summary.cleanRounds,
    'marked rounds': summary.markedRounds,
    'errors+timeouts+non-2xx': summary.failures,
  }
}

export function roundFlags(summary: RoundSummary): string[] {
  const flags =
    summary.markedRounds > 0 ? [`${summary.markedRounds} round(s) with errors/timeouts/non-2xx left out`] : []
  return summary.cleanRounds === 0 ? [...flags, 'no clean round: no figure'] : flags
}
