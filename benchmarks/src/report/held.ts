import { median } from '../measure/stats.js'
import type { ResultsFile } from '../results/results.js'
import { rowKey, spreadOf } from '../results/spread.js'
import type { Row } from '../types.js'
import { formatCell, ratioCell, verdictWord } from './format.js'

/**
 * How far, in percent of their median, a ratio's runs may lie for a README to quote it. One quick run's
 * interval covers the noise inside that run; a fresh process carries a few per cent of its own (code and
 * heap layout, JIT decisions), which only another run shows.
 */
export const HELD_WITHIN_PCT = 5

/** One row as every run of a figures block measured it: what a README may quote of it. */
export interface HeldRow {
  /** The row of the latest run: its label, unit and flags. */
  readonly row: Row
  /** The row in each run that has it, oldest first. */
  readonly runs: readonly Row[]
  /** How many runs the block names. */
  readonly of: number
}

/** Every row of the latest run, with the same row (suite, group, candidate) of the other runs. */
export function heldRows(runs: readonly ResultsFile[]): HeldRow[] {
  const byKey = runs.map((run) => new Map(run.suites.flatMap((s) => s.rows).map((r) => [rowKey(r), r])))
  const latest = runs.at(-1)
  if (!latest) return []
  return latest.suites
    .flatMap((s) => s.rows)
    .map((row) => ({
      row,
      runs: byKey.flatMap((rows) => rows.get(rowKey(row)) ?? []),
      of: runs.length,
    }))
}

/** The median over runs of a figure (strings are the latest run's). */
export function heldValue(held: HeldRow, pick: (row: Row) => number | string | undefined): string {
  const values = held.runs.map(pick)
  const numbers = values.filter((v): v is number => typeof v === 'number')
  if (numbers.length === values.length && numbers.length > 0) return formatCell(median(numbers))
  return formatCell(pick(held.row))
}

/**
 * The first ratio and its verdict as a README may quote them. From one run: the run's own interval. From
 * several: the median and range of the runs, and only when every run decided the ratio and all lie within
 * HELD_WITHIN_PCT of their median; otherwise why not ("undecided in k of n runs", "varies a–b").
 */
export function heldRatio(held: HeldRow): { ratio: string; verdict: string } {
  const { row, runs, of } = held
  if (of === 1) return { ratio: ratioCell(row), verdict: verdictWord(row) }
  const words = new Set(runs.map(verdictWord))
  const verdict = words.size === 1 ? (words.values().next().value as string) : 'varies'
  if (!row.ratios[0]) return { ratio: '', verdict }
  if (runs.length < of) return { ratio: `in ${runs.length} of ${of} runs`, verdict: 'undecided' }
  const undecided = runs.filter((r) => !r.ratios[0] || r.ratios[0].verdict === 'undecided').length
  if (undecided > 0) return { ratio: `undecided in ${undecided} of ${of} runs`, verdict: 'undecided' }
  const spread = spreadOf(runs.map((r) => r.ratios[0]?.value as number))
  const range = `${spread.min.toFixed(2)}–${spread.max.toFixed(2)}`
  if (spread.maxDeviationPct > HELD_WITHIN_PCT) return { ratio: `varies ${range}`, verdict: 'varies' }
  return { ratio: `${spread.median.toFixed(2)} (${range})`, verdict }
}
