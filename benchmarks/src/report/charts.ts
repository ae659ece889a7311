import * as vega from 'vega'
import * as vl from 'vega-lite'
import { xmlDocument } from './escape.js'
import { SERIES } from './words.js'

/** One bar: a figure, its interval when it has one, its series (the legend), its rounds (dots). */
export interface Bar {
  readonly label: string
  readonly value: number
  readonly low?: number
  readonly high?: number
  readonly series: string
  readonly rounds?: readonly number[]
}

export interface BarChart {
  readonly title: string
  /** The x axis title, unit included, and which way is better: "IDs/s (higher is better)". */
  readonly axis: string
  readonly bars: readonly Bar[]
  /** A vertical reference line, e.g. ratio 1 or a physical limit. */
  readonly reference?: { readonly value: number; readonly label: string }
}

export interface LinePoint {
  readonly series: string
  readonly x: number
  readonly y: number
  readonly low?: number
  readonly high?: number
}

export interface LineChart {
  readonly title: string
  readonly xAxis: string
  readonly yAxis: string
  readonly points: readonly LinePoint[]
  /** A log₂ x axis spreads doubling levels (K = 1, 2, 8, 32) evenly. */
  readonly logX?: boolean
}

// Okabe–Ito: distinguishable with the common colour-vision deficiencies; each known series one colour.
const PALETTE = ['#0072b2', '#999999', '#e69f00', '#009e73', '#d55e00', '#cc79a7', '#56b4e9', '#f0e442']
const SERIES_COLOURS: Record<string, string> = {
  [SERIES.decided]: '#0072b2',
  [SERIES.same]: '#56b4e9',
  [SERIES.undecided]: '#bbbbbb',
  [SERIES.baseline]: '#777777',
  [SERIES.control]: '#009e73',
  [SERIES.ceiling]: '#cc79a7',
  [SERIES.flagged]: '#e69f00',
}

function colourScale(series: readonly string[]): { domain: string[]; range: string[] } {
  const domain = [...new Set(series)]
  const spare = PALETTE.filter((c) => !domain.some((s) => SERIES_COLOURS[s] === c))
  let next = 0
  return { domain, range: domain.map((s) => SERIES_COLOURS[s] ?? spare[next++ % spare.length] ?? '#000') }
}

/** Duplicate labels would share one band of the axis: the later ones get " (2)", " (3)". */
function uniqueLabels<T extends { label: string }>(items: readonly T[]): T[] {
  const seen = new Map<string, number>()
  return items.map((item) => {
    const n = (seen.get(item.label) ?? 0) + 1
    seen.set(item.label, n)
    return n === 1 ? item : { ...item, label: `${item.label} (${n})` }
  })
}

const [WIDTH, ROW] = [520, 22]
type Spec = vl.TopLevelSpec
const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json'
// Legend labels are never cut ("no difference (wit…" hid the very word that mattered).
const CONFIG = { legend: { orient: 'bottom', labelLimit: 0, columns: 3 } }
// Assembled as plain data; vega-lite's compile checks a spec when it is rendered.
const asSpec = (spec: object) => spec as unknown as Spec

/**
 * The most rows a chart draws: past a few dozen a bar is too thin to read, and vega compiles the rows'
 * order into one expression, which a few thousand labels overflow. Every row stays in the table.
 */
export const MAX_BARS = 60

/** Labels by decreasing value (the rows' order in every panel that shares them), at most MAX_BARS. */
const drawnOrder = (bars: readonly Bar[]) =>
  uniqueLabels(bars)
    .map((bar, i) => ({ bar, i }))
    .sort((a, b) => b.bar.value - a.bar.value || a.i - b.i)
    .map(({ bar }) => bar.label)
    .slice(0, MAX_BARS)

/** A chart of the bars `order` keeps, its title saying how many of how many it draws. */
function bounded(chart: BarChart, order: readonly string[]): BarChart {
  const total = chart.bars.length
  if (order.length >= total) return chart
  const kept = new Set(order)
  const title = `${chart.title} (the first ${order.length} of ${total.toLocaleString('en-US')} rows; the table has every row)`
  return { ...chart, title, bars: uniqueLabels(chart.bars).filter((bar) => kept.has(bar.label)) }
}

/** A reference line with its label, across a bar view. */
const referenceLayer = (reference: BarChart['reference']) => ({
  data: { values: [reference] },
  layer: [
    {
      mark: { type: 'rule', strokeDash: [4, 3], color: '#d55e00' },
      encoding: { x: { field: 'value', type: 'quantitative' } },
    },
    {
      mark: { type: 'text', align: 'left', dx: 3, dy: -4, baseline: 'bottom', color: '#d55e00' },
      encoding: { x: { field: 'value', type: 'quantitative' }, text: { field: 'label' }, y: { value: 0 } },
    },
  ],
})

/** Sorted horizontal bars, the interval as a whisker, the rounds as dots; labels never truncated. */
function barView(chart: BarChart, width: number, order: readonly string[], labels = true) {
  const bars = uniqueLabels(chart.bars)
  const rank = new Map(order.map((label, i) => [label, i]))
  const values = bars
    .map((bar) => ({ ...bar, low: bar.low ?? bar.value, high: bar.high ?? bar.value, rounds: undefined }))
    .sort((a, b) => (rank.get(a.label) ?? 0) - (rank.get(b.label) ?? 0))
  const dots = bars.flatMap((bar) => (bar.rounds ?? []).map((round) => ({ label: bar.label, round })))
  // An explicit y domain: every layer, and a panel beside this one, keeps the same rows.
  const axis = labels ? { labelLimit: 0, title: null } : { labels: false, ticks: false, title: null }
  const y = { field: 'label', type: 'nominal', sort: order, scale: { domain: order }, axis }
  const tooltip = ['label', 'value', 'low', 'high'].map((field, i) =>
    i ? { field, format: '.3~g' } : { field },
  )
  const color = {
    field: 'series',
    type: 'nominal',
    title: null,
    scale: colourScale(values.map((v) => v.series)),
  }
  const layers: unknown[] = [
    {
      mark: 'bar',
      encoding: { y, x: { field: 'value', type: 'quantitative', title: chart.axis }, color, tooltip },
    },
    {
      mark: { type: 'rule', color: '#222' },
      encoding: { y, x: { field: 'low', type: 'quantitative' }, x2: { field: 'high' } },
    },
    ...(dots.length > 0
      ? [
          {
            data: { values: dots },
            mark: { type: 'point', filled: true, size: 14, color: '#222', opacity: 0.55 },
            encoding: { y, x: { field: 'round', type: 'quantitative' } },
          },
        ]
      : []),
    ...(chart.reference ? [referenceLayer(chart.reference)] : []),
  ]
  const height = Math.max(ROW * values.length, ROW * 2)
  return { title: chart.title, width, height, data: { values }, layer: layers }
}

/** Sorted horizontal bars with a legend by series, whiskers, rounds as dots and an optional reference. */
export function barChartSpec(chart: BarChart): Spec {
  const order = drawnOrder(chart.bars)
  return asSpec({ $schema: SCHEMA, ...barView(bounded(chart, order), WIDTH, order), config: CONFIG })
}

/** Two bar charts on the same rows, in the left one's order: login throughput beside GET /health p99. */
export function sideBySideSpec(left: BarChart, right: BarChart): Spec {
  const order = drawnOrder(left.bars)
  const panels = [
    barView(bounded(left, order), WIDTH / 2, order),
    barView(bounded(right, order), WIDTH / 2, order, false),
  ]
  return asSpec({
    $schema: SCHEMA,
    hconcat: panels,
    resolve: { scale: { color: 'shared', y: 'shared' } },
    config: CONFIG,
  })
}

/** One line per series with its interval band, e.g. speed-up vs K with a limit series. */
export function lineChartSpec(chart: LineChart): Spec {
  const series = [...new Set(chart.points.map((p) => p.series))]
  const kept = new Set(series.slice(0, MAX_BARS))
  const values = chart.points
    .filter((p) => kept.has(p.series))
    .map((p) => ({ ...p, low: p.low ?? p.y, high: p.high ?? p.y }))
  const log = { scale: { type: 'log', base: 2 }, axis: { values: [...new Set(values.map((p) => p.x))] } }
  const x = { field: 'x', type: 'quantitative', title: chart.xAxis, ...(chart.logX ? log : {}) }
  const range = [...PALETTE, '#000000', '#8c564b', '#7f7f7f', '#17becf']
  const color = { field: 'series', type: 'nominal', title: null, scale: { range } }
  const more = series.length > kept.size ? ` (the first ${kept.size} of ${series.length} series)` : ''
  return asSpec({
    $schema: SCHEMA,
    title: `${chart.title}${more}`,
    width: WIDTH,
    height: 260,
    data: { values },
    layer: [
      {
        mark: { type: 'area', opacity: 0.15 },
        encoding: { x, y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' }, color },
      },
      {
        mark: { type: 'line', point: true },
        encoding: { x, y: { field: 'y', type: 'quantitative', title: chart.yAxis }, color },
      },
    ],
    // A legend column on the right holds any number of hashers; its symbols in full colour, as the lines.
    config: { legend: { orient: 'right', labelLimit: 0, symbolOpacity: 1 } },
  })
}

/** One row's rounds as a strip: the interval as a line, the median as a tick, each round as a dot. */
export interface Strip {
  readonly rounds: readonly number[]
  readonly value: number
  readonly low: number
  readonly high: number
  readonly domain: readonly [number, number]
  /** A dashed mark at e.g. ratio 1. */
  readonly reference?: number
}

/** A small, axis-less strip plot for a table cell; its numbers are in the cells beside it. */
export function stripSpec(strip: Strip): Spec {
  const x = {
    type: 'quantitative',
    scale: { domain: [...strip.domain], nice: false, zero: false },
    axis: null,
  }
  const layer = (values: object[], mark: object, field: string, x2?: object) => ({
    data: { values },
    mark,
    encoding: { x: { field, ...x }, ...(x2 ? { x2 } : {}) },
  })
  const layers = [
    ...(strip.reference === undefined
      ? []
      : [
          layer(
            [{ reference: strip.reference }],
            { type: 'rule', strokeDash: [2, 2], color: '#999' },
            'reference',
          ),
        ]),
    layer(
      [{ low: strip.low, high: strip.high }],
      { type: 'rule', color: '#0072b2', strokeWidth: 3, opacity: 0.5 },
      'low',
      { field: 'high' },
    ),
    layer(
      strip.rounds.map((round) => ({ round })),
      { type: 'point', filled: true, size: 16, color: '#222', opacity: 0.6 },
      'round',
    ),
    layer([{ value: strip.value }], { type: 'tick', color: '#d55e00', thickness: 2, size: 14 }, 'value'),
  ]
  return asSpec({
    $schema: SCHEMA,
    width: 150,
    height: 14,
    layer: layers,
    config: { view: { stroke: null } },
  })
}

/** Renders a Vega-Lite spec to a standalone SVG in Node: no browser, no canvas, no network. */
export async function renderSvg(spec: Spec): Promise<string> {
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none', logLevel: vega.Error })
  try {
    // vega escapes markup in labels but passes control characters through, which XML forbids.
    return xmlDocument(await view.toSVG())
  } finally {
    view.finalize()
  }
}
