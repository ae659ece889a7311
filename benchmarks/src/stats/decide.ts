/**
 * What the rows of a run may be read as, decided once: every ratio judged by the current rule from its
 * rounds, a suite whose A/A control moved withheld, and each row's reading as a type. The words for
 * them are src/report/words.ts's; nothing here is prose.
 */
import { readResultsFile } from '../model/results.js'
import {
  hasFlag,
  isWarned,
  type Ratio,
  type ResultsFile,
  type Row,
  type SuiteRecord,
  type Verdict,
} from '../model/types.js'
import { rejudge } from './verdict.js'

/** The first A/A control of a suite that read better or worse: its other verdicts are then withheld. */
export function failedControl<R extends Pick<Row, 'flags' | 'ratios'>>(rows: readonly R[]): R | undefined {
  return rows.find(
    (r) => hasFlag(r, 'control') && (r.ratios[0]?.verdict === 'better' || r.ratios[0]?.verdict === 'worse'),
  )
}

/**
 * A suite's rows with every ratio judged again and, when its A/A control read better or worse, every
 * other ratio withheld: identical code measured as different says the harness, not the code, moved in
 * this run. The control keeps its own verdict, which is the evidence.
 */
export function decideRows(rows: readonly Row[]): Row[] {
  const judged = rows.map((row) => ({ ...row, ratios: row.ratios.map(rejudge) }))
  if (!failedControl(judged)) return judged
  return judged.map((row) =>
    hasFlag(row, 'control')
      ? row
      : { ...row, ratios: row.ratios.map((q) => ({ ...q, verdict: 'undecided' as const, withheld: true })) },
  )
}

export const decideSuite = (suite: SuiteRecord): SuiteRecord => ({ ...suite, rows: decideRows(suite.rows) })

/** A results file with every verdict decided by the current rule. */
export const decideRun = (run: ResultsFile): ResultsFile => ({ ...run, suites: run.suites.map(decideSuite) })

/** Reads a results file (any format read here) and decides its verdicts: what every command reads. */
export const readResults = (file: string): ResultsFile => decideRun(readResultsFile(file))

/** What a reader may conclude from a row, by its first ratio and its flags. */
export type Reading =
  | { readonly kind: 'suspect' }
  | { readonly kind: 'control'; readonly verdict: Verdict }
  | { readonly kind: 'baseline' }
  | { readonly kind: 'ceiling' }
  | { readonly kind: 'ratio'; readonly ratio: Ratio }
  | { readonly kind: 'none' }

export function readingOf(row: Pick<Row, 'flags' | 'ratios'>): Reading {
  const q = row.ratios[0]
  if (isWarned(row)) return { kind: 'suspect' }
  if (hasFlag(row, 'control')) return { kind: 'control', verdict: q?.verdict ?? 'undecided' }
  // A baseline row's own ratio is 1 by construction; a ratio to another baseline is a finding.
  if (hasFlag(row, 'baseline') && (!q || q.rounds.every((r) => r === 1))) return { kind: 'baseline' }
  if (hasFlag(row, 'ceiling')) return { kind: 'ceiling' }
  return q ? { kind: 'ratio', ratio: q } : { kind: 'none' }
}

/**
 * Two readings that say the same: the same kind, and for a ratio the same verdict at the same margin
 * (an undecided ratio's lean is a detail of one run, not a different answer).
 */
export function sameReading(a: Reading, b: Reading): boolean {
  if (a.kind !== b.kind) return false
  if (a.kind === 'control' && b.kind === 'control') return a.verdict === b.verdict
  if (a.kind === 'ratio' && b.kind === 'ratio')
    return (
      a.ratio.verdict === b.ratio.verdict &&
      a.ratio.margin === b.ratio.margin &&
      !a.ratio.withheld === !b.ratio.withheld
    )
  return true
}

export const isUndecided = (r: Reading) =>
  (r.kind === 'ratio' && r.ratio.verdict === 'undecided') ||
  (r.kind === 'control' && r.verdict === 'undecided')
