import { type Flag, median } from '@authlab/benchmarks/harness'

/** One measured round of one candidate; a round with errors, timeouts or non-2xx answers is marked. */
export interface RoundSample {
  readonly value: number
  /** Errors + timeouts + non-2xx responses; a non-zero round is kept out of the median. */
  readonly failures: number
}

/**
 * The clean rounds' median (NaN when none was clean), min, max and spread ((max − min) ÷ median, in
 * percent); `failures` sums every round's, marked ones included.
 */
export function summarizeRounds(samples: readonly RoundSample[]) {
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

type RoundSummary = ReturnType<typeof summarizeRounds>

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

export function roundFlags(summary: RoundSummary): Flag[] {
  const flags: Flag[] =
    summary.markedRounds > 0 ? [{ kind: 'marked-rounds', rounds: summary.markedRounds }] : []
  return summary.cleanRounds === 0 ? [...flags, { kind: 'no-figure' }] : flags
}
