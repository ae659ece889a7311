import type { FindingPart } from '../advice/findings.js'
import { isWarned, type Row } from '../model/types.js'
import { flagText, formatMagnitude, formatRatio, heldText } from './words.js'

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

/** Rows grouped by `group`, in first-seen order. */
export function groupRows(rows: readonly Row[]): Map<string, Row[]> {
  const groups = new Map<string, Row[]>()
  for (const row of rows) groups.set(row.group, [...(groups.get(row.group) ?? []), row])
  return groups
}

/** The first ratio's magnitude with its interval (digits fitted to the interval). */
export function ratioCell(row: Pick<Row, 'ratios'>): string {
  const q = row.ratios[0]
  return q && q.rounds.length > 0 ? formatMagnitude(q) : ''
}

/** The baselines of a group's first ratios, in first-seen order: one names the column, several a column each row. */
export const firstBaselines = (rows: readonly Row[]) => [
  ...new Set(rows.flatMap((r) => r.ratios.slice(0, 1).map((q) => q.baseline))),
]

/**
 * The one full table every reporter renders: candidate, runtime (when rows carry one), value ± rme,
 * rounds, one column per baseline, the details in the suite's order, then flags.
 */
export function tableOf(rows: readonly Row[]): { headers: string[]; cells: string[][]; flagged: boolean[] } {
  const baselines = [...new Set(rows.flatMap((r) => r.ratios.map((q) => q.against)))]
  const labelOf = (against: string) =>
    rows.flatMap((r) => r.ratios).find((q) => q.against === against)?.baseline
  const detailKeys = [...new Set(rows.flatMap((r) => Object.keys(r.details)))]
  const hasSpread = rows.some((r) => r.rme !== undefined)
  const hasRounds = rows.some((r) => r.rounds !== undefined || r.samples !== undefined)
  // Rows measured in several runtimes say which, or one candidate's rows would read alike.
  const hasRuntime = rows.some((r) => r.runtime !== undefined)
  const headers = [
    'candidate',
    ...(hasRuntime ? ['runtime'] : []),
    rows[0]?.unit ?? '',
    ...(hasSpread ? ['± rme'] : []),
    ...(hasRounds ? ['n'] : []),
    ...baselines.map((b) => `× vs ${labelOf(b)}`),
    ...detailKeys,
    'flags',
  ]
  const cells = rows.map((r) => [
    r.label,
    ...(hasRuntime ? [r.runtime ?? ''] : []),
    formatNumber(r.value),
    ...(hasSpread ? [r.rme === undefined ? '' : `${r.rme.toFixed(1)}%`] : []),
    ...(hasRounds ? [String(r.rounds?.length ?? r.samples ?? '')] : []),
    ...baselines.map((b) => {
      const q = r.ratios.find((x) => x.against === b)
      return q ? formatRatio(q) : ''
    }),
    ...detailKeys.map((k) => formatCell(r.details[k])),
    r.flags.map(flagText).join('; '),
  ])
  return { headers, cells, flagged: rows.map(isWarned) }
}

/** A finding's part as every output says it: what it compares, the ratio and what the runs decide. */
export const findingPartText = (p: FindingPart) =>
  `${p.label} ${ratioCell({ ratios: [p.ratio] })} ${heldText(p.held)}`
