import { median } from '../measure/stats.js'
import type { ResultsFile } from '../results/results.js'
import { rowKey } from '../results/spread.js'
import type { Row } from '../types.js'
import { formatCell, ratioCell, verdictWord } from './format.js'

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
 * The first ratio and its verdict as a README may quote them: the latest run's magnitude and interval,
 * and the verdict only when every run reached the same one; otherwise why not ("undecided in k of n
 * runs", "varies: better, same").
 */
export function heldRatio(held: HeldRow): { ratio: string; verdict: string } {
  const { row, runs, of } = held
  const ratio = ratioCell(row)
  if (of === 1) return { ratio, verdict: verdictWord(row) }
  if (runs.length < of) return { ratio, verdict: `in ${runs.length} of ${of} runs` }
  const words = runs.map(verdictWord)
  const distinct = [...new Set(words)]
  if (distinct.length === 1)
    return { ratio, verdict: `${distinct[0]}${row.ratios[0] ? ` (${of} of ${of} runs)` : ''}` }
  const undecided = runs.filter((r) => r.ratios[0]?.verdict === 'undecided').length
  if (undecided > 0 && distinct.filter((w) => !w.startsWith('undecided')).length <= 1)
    return { ratio, verdict: `undecided in ${undecided} of ${of} runs` }
  return { ratio, verdict: `varies: ${distinct.join(', ')}` }
}
