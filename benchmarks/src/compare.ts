import type { ResultsFile } from './results.js'
import type { Row } from './types.js'

export interface Change {
  readonly key: string
  readonly label: string
  readonly unit: string
  readonly before: number
  readonly after: number
  /** (after − before) ÷ before, in percent. */
  readonly deltaPct: number
  readonly worse: boolean
  /** The 95 % confidence intervals (value ± rme) do not overlap. */
  readonly significant: boolean
  /** Significant, worse, and by more than the threshold. */
  readonly regression: boolean
}

export interface Comparison {
  readonly changes: readonly Change[]
  /** Row keys present in only one of the files (new or removed candidates/groups). */
  readonly onlyBefore: readonly string[]
  readonly onlyAfter: readonly string[]
}

const keyOf = (r: Row) => `${r.suite} · ${r.group} · ${r.candidate} [${r.unit}]`

/**
 * Significance rule: two figures differ when their 95 % confidence intervals, value × (1 ± rme),
 * do not overlap. That is conservative (non-overlap of two 95 % CIs implies p < 0.01 for Welch's
 * t-test; Schenker & Gentleman, The American Statistician 55(3), 2001), so a flagged regression is
 * real, at the price of missing some small ones. Rows without a spread are never significant.
 */
export function significantlyDifferent(a: Row, b: Row): boolean {
  if (a.rme === undefined || b.rme === undefined) return false
  const [aLo, aHi] = [a.value * (1 - a.rme / 100), a.value * (1 + a.rme / 100)]
  const [bLo, bHi] = [b.value * (1 - b.rme / 100), b.value * (1 + b.rme / 100)]
  return aHi < bLo || bHi < aLo
}

export function compareResults(before: ResultsFile, after: ResultsFile, thresholdPct: number): Comparison {
  const rowsOf = (r: ResultsFile) => new Map(r.suites.flatMap((s) => s.rows).map((row) => [keyOf(row), row]))
  const [a, b] = [rowsOf(before), rowsOf(after)]
  const changes: Change[] = []
  for (const [key, old] of a) {
    const now = b.get(key)
    if (!now) continue
    const deltaPct = ((now.value - old.value) / old.value) * 100
    const worse = old.higherIsBetter ? deltaPct < 0 : deltaPct > 0
    const significant = significantlyDifferent(old, now)
    changes.push({
      key,
      label: now.label,
      unit: now.unit,
      before: old.value,
      after: now.value,
      deltaPct,
      worse,
      significant,
      regression: significant && worse && Math.abs(deltaPct) > thresholdPct,
    })
  }
  return {
    changes,
    onlyBefore: [...a.keys()].filter((k) => !b.has(k)),
    onlyAfter: [...b.keys()].filter((k) => !a.has(k)),
  }
}
