import * as vega from 'vega'
import * as vl from 'vega-lite'

/** One bar: a figure, its interval when it has one, and the series it belongs to (the legend). */
export interface Bar {
  readonly label: string
  readonly value: number
  readonly low?: number
  readonly high?: number
  /** e.g. "measured", "baseline", "A/A control", "undecided", "INSECURE ceiling". */
  readonly series: string
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
}

// Okabe–Ito: distinguishable with the common colour-vision deficiencies.
const PALETTE = ['#0072b2', '#999999', '#e69f00', '#009e73', '#d55e00', '#cc79a7', '#56b4e9', '#f0e442']
const WIDTH = 520
const ROW = 22

type Spec = vl.TopLevelSpec
const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json'
const CONFIG = { legend: { orient: 'bottom' } }
// The specs are assembled as plain data; vega-lite's compile checks them when they are rendered.
const asSpec = (spec: object) => spec as unknown as Spec

/**
 * Sorted horizontal bars with an axis, a legend by series, the interval as a whisker and an optional
 * reference line. Labels are never truncated (`labelLimit: 0`): the chart grows to fit them.
 */
export function barChartSpec(chart: BarChart): Spec {
  return asSpec({ $schema: SCHEMA, ...barView(chart, WIDTH), config: CONFIG })
}

function barView(chart: BarChart, width: number): Record<string, unknown> {
  const values = [...chart.bars]
    .sort((a, b) => b.value - a.value)
    .map((bar, order) => ({ ...bar, order, low: bar.low ?? bar.value, high: bar.high ?? bar.value }))
  const y = { field: 'label', type: 'nominal', sort: null, axis: { labelLimit: 0, title: null } } as const
  const layers: unknown[] = [
    {
      mark: 'bar',
      encoding: {
        y,
        x: { field: 'value', type: 'quantitative', title: chart.axis },
        color: { field: 'series', type: 'nominal', title: null, scale: { range: PALETTE } },
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
  return asSpec({
    $schema: SCHEMA,
    hconcat: [barView(left, WIDTH / 2), barView(right, WIDTH / 2)],
    resolve: { scale: { color: 'shared' } },
    config: CONFIG,
  })
}

/** One line per series with its interval band, e.g. speed-up vs K with a limit series. */
export function lineChartSpec(chart: LineChart): Spec {
  const values = chart.points.map((p) => ({ ...p, low: p.low ?? p.y, high: p.high ?? p.y }))
  const x = { field: 'x', type: 'quantitative', title: chart.xAxis } as const
  const color = { field: 'series', type: 'nominal', title: null, scale: { range: PALETTE } } as const
  return asSpec({
    $schema: SCHEMA,
    title: chart.title,
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
    config: CONFIG,
  })
}

/** Renders a Vega-Lite spec to a standalone SVG in Node: no browser, no canvas, no network. */
export async function renderSvg(spec: Spec): Promise<string> {
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none', logLevel: vega.Error })
  try {
    return await view.toSVG()
  } finally {
    view.finalize()
  }
}
