import type { ResultsFile } from './results.js'
import type { Figure, Row } from '../types.js'

/** What is compared for one row: its ratio to the same-run baseline, or its absolute value. */
export interface Compared extends Figure {
  readonly higherIsBetter: boolean
  readonly unit: string
}

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
 * By default a row is compared through its ratio to the baseline of its own run:
 * a slower or busier machine moves both sides and cancels out, so CI runners of different speeds
 * can be compared. `absolute` compares raw values, meaningful only on the same quiet machine.
 */
export function figureOf(row: Row, absolute: boolean): Compared {
  const ratio = row.ratios[0]
  if (!absolute && ratio) {
    return { value: ratio.value, rme: ratio.rme, higherIsBetter: true, unit: `× vs ${ratio.baseline}` }
  }
  return {
    value: row.value,
    ...(row.rme === undefined ? {} : { rme: row.rme }),
    higherIsBetter: row.higherIsBetter,
    unit: row.unit,
  }
}

/**
 * Significance rule: two figures differ when their 95 % confidence intervals, value × (1 ± rme),
 * do not overlap. That is conservative (non-overlap of two 95 % CIs implies p < 0.01 for Welch's
 * t-test; Schenker & Gentleman, The American Statistician 55(3), 2001), so a flagged regression is
 * real, at the price of missing some small ones. Figures without a spread are never significant.
 */
export function significantlyDifferent(a: Figure, b: Figure): boolean {
  if (a.rme === undefined || b.rme === undefined) return false
  const [aLo, aHi] = [a.value * (1 - a.rme / 100), a.value * (1 + a.rme / 100)]
  const [bLo, bHi] = [b.value * (1 - b.rme / 100), b.value * (1 + b.rme / 100)]
  return aHi < bLo || bHi < aLo
}

export function compareResults(
  before: ResultsFile,
  after: ResultsFile,
  thresholdPct: number,
  absolute = false,
): Comparison {
  const rowsOf = (r: ResultsFile) => new Map(r.suites.flatMap((s) => s.rows).map((row) => [keyOf(row), row]))
  const [a, b] = [rowsOf(before), rowsOf(after)]
  const changes: Change[] = []
  for (const [key, oldRow] of a) {
    const newRow = b.get(key)
    if (!newRow) continue
    const [old, now] = [figureOf(oldRow, absolute), figureOf(newRow, absolute)]
    // A ratio against a different baseline (or a ratio against none) is not the same figure.
    if (old.unit !== now.unit) continue
    const deltaPct = ((now.value - old.value) / old.value) * 100
    const worse = old.higherIsBetter ? deltaPct < 0 : deltaPct > 0
    const significant = significantlyDifferent(old, now)
    changes.push({
      key,
      label: newRow.label,
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
