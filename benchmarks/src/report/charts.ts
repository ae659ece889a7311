import * as vega from 'vega'
import * as vl from 'vega-lite'
import { xmlDocument } from './escape.js'
import { SERIES } from './words.js'

/** One bar: a figure, its interval when it has one, and the series it belongs to (the legend). */
export interface Bar {
  readonly label: string
  readonly value: number
  readonly low?: number
  readonly high?: number
  /** e.g. "measured", "baseline", "A/A control", "undecided", "INSECURE ceiling". */
  readonly series: string
  /** The per-round figures the bar summarises, drawn as dots over it. */
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

// Okabe–Ito: distinguishable with the common colour-vision deficiencies.
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

/** A colour scale over the series present, in first-seen order, with fixed colours for the known ones. */
function colourScale(series: readonly string[]): { domain: string[]; range: string[] } {
  const domain = [...new Set(series)]
  const spare = PALETTE.filter((c) => !domain.some((s) => SERIES_COLOURS[s] === c))
  let next = 0
  const range = domain.map((s) => SERIES_COLOURS[s] ?? spare[next++ % spare.length] ?? '#000000')
  return { domain, range }
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
const WIDTH = 520
const ROW = 22

type Spec = vl.TopLevelSpec
const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json'
// Legend labels are never cut ("no difference (wit…" hid the very word that mattered).
const CONFIG = { legend: { orient: 'bottom', labelLimit: 0, columns: 3 } }
// The specs are assembled as plain data; vega-lite's compile checks them when they are rendered.
const asSpec = (spec: object) => spec as unknown as Spec

/**
 * Sorted horizontal bars with a legend by series, the interval as a whisker, the per-round figures as
 * dots and an optional reference line; labels are never truncated: the chart grows to fit them.
 */
export function barChartSpec(chart: BarChart): Spec {
  const order = drawn(sortedLabels(chart.bars))
  return asSpec({ $schema: SCHEMA, ...barView(bounded(chart, order), WIDTH, order), config: CONFIG })
}

/**
 * The most rows a chart draws: past a few dozen a bar is too thin to read, and vega compiles the
 * rows' order into one expression, which a few thousand labels overflow. Every row stays in the table.
 */
export const MAX_BARS = 60

/** The first MAX_BARS labels of an order. */
const drawn = (order: readonly string[]) => order.slice(0, MAX_BARS)

/** A chart of the bars whose labels `order` keeps, its title saying how many of how many it draws. */
function bounded(chart: BarChart, order: readonly string[]): BarChart {
  const total = chart.bars.length
  if (order.length >= total) return chart
  const kept = new Set(order)
  return {
    ...chart,
    title: `${chart.title} (the first ${order.length} of ${total.toLocaleString('en-US')} rows; the table has every row)`,
    bars: uniqueLabels(chart.bars).filter((bar) => kept.has(bar.label)),
  }
}

/** Labels by decreasing value: the order of the rows in every panel that shares them. */
function sortedLabels(bars: readonly Bar[]): string[] {
  return uniqueLabels(bars)
    .map((bar, i) => ({ bar, i }))
    .sort((a, b) => b.bar.value - a.bar.value || a.i - b.i)
    .map(({ bar }) => bar.label)
}

function barView(
  chart: BarChart,
  width: number,
  order: readonly string[],
  labels = true,
): Record<string, unknown> {
  const bars = uniqueLabels(chart.bars)
  const rank = new Map(order.map((label, i) => [label, i]))
  const values = bars
    .map((bar) => ({ ...bar, low: bar.low ?? bar.value, high: bar.high ?? bar.value, rounds: undefined }))
    .sort((a, b) => (rank.get(a.label) ?? 0) - (rank.get(b.label) ?? 0))
  const dots = values.flatMap((bar) => {
    const rounds = bars.find((b) => b.label === bar.label)?.rounds ?? []
    return rounds.map((round) => ({ label: bar.label, round }))
  })
  // The y domain is given explicitly, so every layer (and a panel beside this one) keeps the same rows.
  const y = {
    field: 'label',
    type: 'nominal',
    sort: order,
    scale: { domain: order },
    axis: labels ? { labelLimit: 0, title: null } : { labels: false, ticks: false, title: null },
  } as const
  const colour = colourScale(values.map((v) => v.series))
  const layers: unknown[] = [
    {
      mark: 'bar',
      encoding: {
        y,
        x: { field: 'value', type: 'quantitative', title: chart.axis },
        color: { field: 'series', type: 'nominal', title: null, scale: colour },
        tooltip: [
          { field: 'label' },
          { field: 'value', format: '.3~g' },
          { field: 'low', format: '.3~g' },
          { field: 'high', format: '.3~g' },
        ],
      },
    },
    {
      mark: { type: 'rule', color: '#222' },
      encoding: { y, x: { field: 'low', type: 'quantitative' }, x2: { field: 'high' } },
    },
  ]
  if (dots.length > 0) {
    layers.push({
      data: { values: dots },
      mark: { type: 'point', filled: true, size: 14, color: '#222', opacity: 0.55 },
      encoding: { y, x: { field: 'round', type: 'quantitative' } },
    })
  }
  if (chart.reference) {
    layers.push({
      data: { values: [chart.reference] },
      layer: [
        {
          mark: { type: 'rule', strokeDash: [4, 3], color: '#d55e00' },
          encoding: { x: { field: 'value', type: 'quantitative' } },
        },
        {
          mark: { type: 'text', align: 'left', dx: 3, dy: -4, baseline: 'bottom', color: '#d55e00' },
          encoding: {
            x: { field: 'value', type: 'quantitative' },
            text: { field: 'label' },
            y: { value: 0 },
          },
        },
      ],
    })
  }
  return {
    title: chart.title,
    width,
    height: Math.max(ROW * values.length, ROW * 2),
    data: { values },
    layer: layers,
  }
}

/** Two bar charts side by side on the same rows: e.g. login throughput beside GET /health p99. */
export function sideBySideSpec(left: BarChart, right: BarChart): Spec {
  // Both panels list the rows in the left one's order, so a row is read across; labels only on the left.
  const order = drawn(sortedLabels(left.bars))
  return asSpec({
    $schema: SCHEMA,
    hconcat: [
      barView(bounded(left, order), WIDTH / 2, order),
      barView(bounded(right, order), WIDTH / 2, order, false),
    ],
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
  const x = {
    field: 'x',
    type: 'quantitative',
    title: chart.xAxis,
    ...(chart.logX
      ? { scale: { type: 'log', base: 2 }, axis: { values: [...new Set(values.map((p) => p.x))] } }
      : {}),
  } as const
  const color = {
    field: 'series',
    type: 'nominal',
    title: null,
    scale: { range: [...PALETTE, '#000000', '#8c564b', '#7f7f7f', '#17becf'] },
  } as const
  return asSpec({
    $schema: SCHEMA,
    title:
      series.length > kept.size
        ? `${chart.title} (the first ${kept.size} of ${series.length} series)`
        : chart.title,
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
    // One series per hasher: a column on the right stays inside the chart however many there are.
    // The symbols in full colour, as the lines are, not as faint as the bands.
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
  } as const
  const layers: unknown[] = [
    {
      data: { values: [{ low: strip.low, high: strip.high }] },
      mark: { type: 'rule', color: '#0072b2', strokeWidth: 3, opacity: 0.5 },
      encoding: { x: { field: 'low', ...x }, x2: { field: 'high' } },
    },
    {
      data: { values: strip.rounds.map((round) => ({ round })) },
      mark: { type: 'point', filled: true, size: 16, color: '#222', opacity: 0.6 },
      encoding: { x: { field: 'round', ...x } },
    },
    {
      data: { values: [{ value: strip.value }] },
      mark: { type: 'tick', color: '#d55e00', thickness: 2, size: 14 },
      encoding: { x: { field: 'value', ...x } },
    },
  ]
  if (strip.reference !== undefined) {
    layers.unshift({
      data: { values: [{ reference: strip.reference }] },
      mark: { type: 'rule', strokeDash: [2, 2], color: '#999' },
      encoding: { x: { field: 'reference', ...x } },
    })
  }
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
