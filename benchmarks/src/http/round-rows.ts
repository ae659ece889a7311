import type { RoundSummary } from './rounds.js'

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
