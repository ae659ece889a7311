import { hasFlag, isWarned, type Row, type SuiteRecord } from '../model/types.js'
import type { SuiteChart, SuiteView } from '../model/view.js'
import { medianInterval } from '../stats/stats.js'
import { type Bar, type BarChart, barChartSpec, sideBySideSpec } from './charts.js'
import { firstBaselines, groupRows } from './format.js'
import { SERIES } from './words.js'

type Spec = ReturnType<typeof barChartSpec>

/** The legend entry of a row: what a reader may take its bar for. */
export function seriesOf(row: Row): string {
  if (isWarned(row)) return SERIES.flagged
  if (hasFlag(row, 'control')) return SERIES.control
  if (hasFlag(row, 'ceiling')) return SERIES.ceiling
  if (hasFlag(row, 'baseline')) return SERIES.baseline
  const verdict = row.ratios[0]?.verdict
  if (verdict === 'undecided') return SERIES.undecided
  if (verdict === 'same') return SERIES.same
  return SERIES.decided
}

/** A bar of the row's first ratio: median of the per-round ratios, 95 % interval, the rounds as dots. */
function ratioBar(row: Row): Bar | undefined {
  const q = row.ratios[0]
  return (
    q && {
      label: row.label,
      value: q.value,
      low: q.low,
      high: q.high,
      series: seriesOf(row),
      rounds: q.rounds,
    }
  )
}

/** A bar of the row's own figure, with the interval of its rounds' median when it has rounds. */
function valueBar(row: Row): Bar {
  const rounds = row.rounds ?? []
  const interval = rounds.length > 1 ? medianInterval(rounds) : undefined
  return { label: row.label, value: row.value, ...(interval ?? {}), series: seriesOf(row), rounds }
}

/** A bar of one of the row's details (one figure per row: no rounds, no interval); 0 when absent. */
function detailBar(row: Row, key: string): Bar {
  return { label: row.label, value: numberDetail(row, key) ?? 0, series: seriesOf(row) }
}

const better = (row: Row | undefined) => (row?.higherIsBetter === false ? 'lower' : 'higher')
export const numberDetail = (row: Row, key: string) => {
  const v = row.details[key]
  return typeof v === 'number' ? v : undefined
}
export const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

/**
 * The group's first ratios as sorted bars, or its own figures when it has no ratio. A group of yes/no
 * figures (every value 0 or 1, no ratio) is a table, not a chart.
 */
export function groupChart(suite: string, group: string, rows: readonly Row[]): SuiteChart | undefined {
  const title = `${suite} · ${group}`
  const ratioBars = rows.map(ratioBar).filter((b): b is Bar => b !== undefined)
  if (ratioBars.length === 0 && rows.every((r) => r.value === 0 || r.value === 1)) return undefined
  const baselines = firstBaselines(rows)
  const against = baselines.length === 1 ? baselines[0] : 'each row’s own baseline (see table)'
  const chart: BarChart =
    ratioBars.length > 0
      ? {
          title,
          axis: `× vs ${against} (higher is better; dots: rounds, whisker: 95 % interval)`,
          bars: ratioBars,
          reference: { value: 1, label: baselines.length === 1 ? '1 = baseline' : '1' },
        }
      : { title, axis: `${rows[0]?.unit ?? ''} (${better(rows[0])} is better)`, bars: rows.map(valueBar) }
  return { name: slug(group), title, spec: barChartSpec(chart) }
}

/** Two panels on the same rows: each row's own figure, and one of its details (`series` recolours both). */
export function pairChart(
  rows: readonly Row[],
  left: Omit<BarChart, 'bars'>,
  right: Omit<BarChart, 'bars'>,
  detail: string,
  series?: (row: Row) => string,
): Spec {
  const bars = (bar: (row: Row) => Bar) =>
    rows.map((row) => (series ? { ...bar(row), series: series(row) } : bar(row)))
  return sideBySideSpec(
    { ...left, bars: bars(valueBar) },
    { ...right, bars: bars((row) => detailBar(row, detail)) },
  )
}

/** One chart per group: its first ratios as sorted bars, or its own figures. */
export const defaultCharts = (suite: string, rows: readonly Row[]): SuiteChart[] =>
  [...groupRows(rows)].flatMap(([group, list]) => groupChart(suite, group, list) ?? [])

/** Every chart of a suite, in reading order: the suite's own view, else one per group. */
export function suiteCharts(suite: SuiteRecord, view: SuiteView, cores: number): SuiteChart[] {
  return [...(view.charts?.(suite.rows, cores) ?? defaultCharts(suite.name, suite.rows))]
}

export { groupRows }
