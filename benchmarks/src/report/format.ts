import { keyOf } from '../keys.js'
import { CONTROL_FLAG } from '../measure/verdict.js'
import type { Row } from '../types.js'
import { controlText, formatMagnitude, formatRatio, verdictText } from './words.js'

/** Readable figures: counts and values from 1000 up as grouped integers, otherwise three significant digits. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n)
  const abs = Math.abs(n)
  if (abs >= 1000 || Number.isInteger(n)) return Math.round(n).toLocaleString('en-US')
  if (abs >= 100) return n.toFixed(0)
  if (abs >= 10) return n.toFixed(1)
  if (abs >= 1) return n.toFixed(2)
  return abs === 0 ? '0' : n.toPrecision(3)
}

export function formatCell(value: number | string | undefined): string {
  return typeof value === 'number' ? formatNumber(value) : (value ?? '')
}

export { formatRatio }

/** Flags that make a row untrustworthy as printed (highlighted by every reporter). */
export function isWarning(flag: string): boolean {
  return flag.startsWith('noisy') || flag.startsWith('measurement error') || flag.startsWith('no clean round')
}

/**
 * Whether a summary (the terminal, a README) shows this row: the hash suite's figures at each
 * candidate's defaults, no concurrency level, every row of the other suites. The cost-equalised hash
 * settings and the concurrency levels answer claims (their findings are printed) and fill the reports.
 */
export function inSummary(row: Row): boolean {
  if (row.suite === 'hash') return keyOf(row).setting === 'defaults'
  return row.suite !== 'concurrency'
}

/**
 * What the terminal shows of a run: the summary's rows, but of the hash suite only the hash (a verify
 * repeats the derivation; the reports and the bcryptjs finding give both).
 */
export function inTerminal(row: Row): boolean {
  return inSummary(row) && !(row.suite === 'hash' && keyOf(row).operation === 'verify')
}

/** Rows grouped by `group`, in first-seen order. */
export function groupRows(rows: readonly Row[]): Map<string, Row[]> {
  const groups = new Map<string, Row[]>()
  for (const row of rows) {
    const list = groups.get(row.group) ?? []
    list.push(row)
    groups.set(row.group, list)
  }
  return groups
}

/**
 * The one table layout every reporter renders: candidate, runtime (when rows carry one), value ± rme,
 * samples, one column per baseline, the details in the suite's order, then flags.
 */
export function tableOf(rows: readonly Row[]): {
  headers: string[]
  cells: string[][]
  /** Per body row: should a reader distrust it (noisy, skipped...)? */
  flagged: boolean[]
} {
  const baselines = [...new Set(rows.flatMap((r) => r.ratios.map((q) => q.baseline)))]
  const detailKeys = [...new Set(rows.flatMap((r) => Object.keys(r.details)))]
  const unit = rows[0]?.unit ?? ''
  const hasSpread = rows.some((r) => r.rme !== undefined)
  const hasRounds = rows.some((r) => r.rounds !== undefined || r.samples !== undefined)
  // Rows measured in several runtimes say which, or one candidate's rows would read alike.
  const hasRuntime = rows.some((r) => runtimeOf(r) !== undefined)
  const headers = [
    'candidate',
    ...(hasRuntime ? ['runtime'] : []),
    unit,
    ...(hasSpread ? ['± rme'] : []),
    ...(hasRounds ? ['n'] : []),
    ...baselines.map((b) => `× vs ${b}`),
    ...detailKeys,
    'flags',
  ]
  const cells = rows.map((r) => [
    r.label,
    ...(hasRuntime ? [runtimeOf(r) ?? ''] : []),
    formatNumber(r.value),
    ...(hasSpread ? [r.rme === undefined ? '' : `${r.rme.toFixed(1)}%`] : []),
    ...(hasRounds ? [String(r.rounds?.length ?? r.samples ?? '')] : []),
    ...baselines.map((b) => {
      const q = r.ratios.find((x) => x.baseline === b)
      return q ? formatRatio(q) : ''
    }),
    ...detailKeys.map((k) => formatCell(r.details[k])),
    r.flags.join('; '),
  ])
  return { headers, cells, flagged: rows.map((r) => r.flags.some(isWarning)) }
}

/** A row's state in a few words: what the reader may conclude from its first ratio. */
export function verdictWord(row: Row): string {
  if (row.flags.some(isWarning)) return 'suspect'
  const q = row.ratios[0]
  if (row.flags.includes(CONTROL_FLAG)) return controlText(q)
  // A baseline row's own ratio is 1 by construction; a ratio to another baseline is a finding.
  if (row.flags.includes('baseline') && (!q || q.rounds.every((r) => r === 1))) return 'baseline'
  if (row.flags.some((f) => f.startsWith('ceiling'))) return 'ceiling'
  return q ? verdictText(q) : ''
}

/** The first ratio's magnitude with its interval (digits fitted to the interval). */
export function ratioCell(row: Row): string {
  const q = row.ratios[0]
  return q && q.rounds.length > 0 ? formatMagnitude(q) : ''
}

/** The runtime a row was measured in, when the run compared runtimes; rows without one ran in this Node. */
export function runtimeOf(row: Row): string | undefined {
  const runtime = (row as Row & { runtime?: unknown }).runtime
  return typeof runtime === 'string' ? runtime : undefined
}
