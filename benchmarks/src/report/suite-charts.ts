import { medianInterval } from '../measure/stats.js'
import { CONTROL_FLAG } from '../measure/verdict.js'
import type { SuiteRecord } from '../results/results.js'
import type { Row } from '../types.js'
import {
  type Bar,
  type BarChart,
  barChartSpec,
  type LinePoint,
  lineChartSpec,
  SERIES,
  sideBySideSpec,
} from './charts.js'
import { groupRows, isWarning } from './format.js'

type Spec = ReturnType<typeof barChartSpec>

/** One chart of a suite: `name` makes its file name (`<stem>-<suite>-<name>.svg`) and its HTML anchor. */
export interface SuiteChart {
  readonly name: string
  readonly title: string
  readonly spec: Spec
}

/** The legend entry of a row: what a reader may take its bar for. */
export function seriesOf(row: Row): string {
  if (row.flags.some(isWarning)) return SERIES.flagged
  if (row.flags.includes(CONTROL_FLAG)) return SERIES.control
  if (row.flags.some((f) => f.startsWith('ceiling'))) return SERIES.ceiling
  if (row.flags.includes('baseline')) return SERIES.baseline
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
const numberDetail = (row: Row, key: string) => {
  const v = row.details[key]
  return typeof v === 'number' ? v : undefined
}
const slug = (text: string) =>
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
  const baselines = [...new Set(rows.flatMap((r) => r.ratios.slice(0, 1).map((q) => q.baseline)))]
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
function pairChart(
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

/** IDs: how fast, and what a surviving ID costs the heap, on the same rows. */
function idsChart(rows: readonly Row[]): SuiteChart | undefined {
  const withHeap = rows.filter((r) => numberDetail(r, 'heap B/survivor') !== undefined)
  if (withHeap.length === 0) return undefined
  const spec = pairChart(
    withHeap,
    { title: 'IDs per CPU-second', axis: `IDs/s (higher is better; whisker: 95 % interval of the rounds)` },
    { title: 'Heap retained per surviving ID', axis: 'bytes per survivor (lower is better)' },
    'heap B/survivor',
  )
  return { name: 'speed-and-heap', title: 'IDs/s and retained heap per survivor', spec }
}

/**
 * Login: throughput beside the GET /health p99 measured meanwhile. A hasher that blocks the event loop
 * can keep its logins/s and still answer health checks 10× later: only the right panel shows it.
 */
function loginChart(group: string, rows: readonly Row[]): SuiteChart {
  const spec = pairChart(
    rows,
    { title: `${group}: logins/s`, axis: 'logins/s (higher is better)' },
    { title: 'GET /health p99 meanwhile', axis: 'ms (lower is better)' },
    'GET /health p99 ms',
  )
  return { name: slug(group), title: `${group}: throughput and GET /health p99`, spec }
}

/** Lag: the worst and the 99th-percentile event-loop delay while hashing, on the same rows. */
function lagChart(group: string, rows: readonly Row[]): SuiteChart {
  const spec = pairChart(
    rows,
    { title: 'Longest event-loop delay', axis: `${rows[0]?.unit ?? 'ms'} (lower is better)` },
    { title: 'p99 event-loop delay', axis: 'ms (lower is better)' },
    'p99 delay ms',
    (row) => `runs on ${String(row.details['runs on'] ?? seriesOf(row))}`,
  )
  return { name: slug(group), title: `lag · ${group}`, spec }
}

/**
 * Concurrency: the speed-up of K concurrent hashes over one hash alone (each K row's ratio, per round),
 * against the line no hasher can cross: min(K, cores).
 */
function concurrencyChart(rows: readonly Row[], cores: number): SuiteChart | undefined {
  const points: LinePoint[] = []
  const levels = new Set<number>()
  for (const row of rows) {
    const k = Number(/^K=(\d+)$/.exec(row.group)?.[1])
    if (!Number.isFinite(k)) continue
    levels.add(k)
    const q = row.ratios[0]
    if (q) points.push({ series: row.label, x: k, y: q.value, low: q.low, high: q.high })
    else if (k === 1) points.push({ series: row.label, x: 1, y: 1 })
  }
  if (points.length === 0) return undefined
  const limit = `limit: cores ÷ hash time (${cores} cores)`
  for (const k of levels) points.push({ series: limit, x: k, y: Math.min(k, cores) })
  const spec = lineChartSpec({
    title: 'Speed-up of K concurrent hashes over one hash alone (band: 95 % interval)',
    xAxis: 'K concurrent hashes',
    yAxis: 'speed-up (× one hash alone)',
    points,
    logX: true,
  })
  return { name: 'speed-up', title: 'speed-up vs K against the cores ÷ hash-time limit', spec }
}

/** Every chart of a suite, in reading order: the suite's finding first, then one chart per group. */
export function suiteCharts(suite: SuiteRecord, cores: number): SuiteChart[] {
  const groups = [...groupRows(suite.rows)]
  const charts: (SuiteChart | undefined)[] = []
  if (suite.name === 'ids') charts.push(idsChart(suite.rows))
  if (suite.name === 'concurrency') {
    charts.push(concurrencyChart(suite.rows, cores))
    return charts.filter((c): c is SuiteChart => c !== undefined)
  }
  for (const [group, rows] of groups) {
    if (suite.name === 'lag') charts.push(lagChart(group, rows))
    else if (group.startsWith('login')) charts.push(loginChart(group, rows))
    else charts.push(groupChart(suite.name, group, rows))
  }
  return charts.filter((c): c is SuiteChart => c !== undefined)
}
