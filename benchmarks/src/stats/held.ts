/**
 * Several consecutive runs of one commit, read together: a figure is the median over the runs, and a
 * verdict is quoted only where every run reached it. The decision is a type; src/report/words.ts says it.
 */
import { keyText } from '../model/keys.js'
import type { ResultsFile, Row } from '../model/types.js'
import { isUndecided, type Reading, readingOf, sameReading } from './decide.js'
import { median } from './stats.js'

/** One row as every run of a figures block measured it: what a README may quote of it. */
export interface HeldRow {
  /** The row of the latest run: its label, unit and flags. */
  readonly row: Row
  /** The row in each run that has it, oldest first. */
  readonly runs: readonly Row[]
  /** How many runs the block names. */
  readonly of: number
}

/** Every row of the latest run, with the same row (its key) of the other runs. */
export function heldRows(runs: readonly ResultsFile[]): HeldRow[] {
  const byKey = runs.map((run) => new Map(run.suites.flatMap((s) => s.rows).map((r) => [keyText(r), r])))
  const latest = runs.at(-1)
  if (!latest) return []
  return latest.suites
    .flatMap((s) => s.rows)
    .map((row) => ({ row, runs: byKey.flatMap((rows) => rows.get(keyText(row)) ?? []), of: runs.length }))
}

/** The median over runs of a figure; a string (or a figure some run lacks) is the latest run's. */
export function heldValue(
  held: HeldRow,
  pick: (row: Row) => number | string | undefined,
): number | string | undefined {
  const values = held.runs.map(pick)
  const numbers = values.filter((v): v is number => typeof v === 'number')
  if (numbers.length === values.length && numbers.length > 0) return median(numbers)
  return pick(held.row)
}

/** What the runs of a block say of a row's first ratio. */
export type Held =
  /** One run: its own reading. */
  | { readonly kind: 'one'; readonly reading: Reading }
  /** Some runs have no such row. */
  | { readonly kind: 'some'; readonly present: number; readonly of: number }
  /** Every run read it alike; `counted` when there is a ratio to count runs of. */
  | { readonly kind: 'all'; readonly reading: Reading; readonly of: number; readonly counted: boolean }
  /** Some runs left it undecided, the others agree. */
  | {
      readonly kind: 'undecided-in'
      readonly undecided: number
      readonly of: number
      readonly control: boolean
    }
  /** The runs read it differently: never one of them alone. */
  | { readonly kind: 'varies'; readonly readings: readonly Reading[] }

export function heldReading({ row, runs, of }: HeldRow): Held {
  if (of === 1) return { kind: 'one', reading: readingOf(row) }
  if (runs.length < of) return { kind: 'some', present: runs.length, of }
  const readings = runs.map(readingOf)
  const distinct = readings.filter((r, i) => readings.findIndex((s) => sameReading(r, s)) === i)
  if (distinct.length === 1)
    return { kind: 'all', reading: readingOf(row), of, counted: row.ratios[0] !== undefined }
  const undecided = readings.filter(isUndecided).length
  if (undecided > 0 && distinct.filter((r) => !isUndecided(r)).length <= 1)
    return { kind: 'undecided-in', undecided, of, control: readings.some((r) => r.kind === 'control') }
  return { kind: 'varies', readings: distinct }
}
