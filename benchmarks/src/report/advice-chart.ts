import type * as vl from 'vega-lite'
import type { ChartPick, PickRole } from '../advice/picks.js'
import { placeLabels } from './label-placement.js'

/** The plot's inner size and its labels' font: an SVG under 830 px wide, GitHub's narrowest README width, so it is never scaled down. */
export const TRADE_OFF_PLOT = { width: 640, height: 340, fontSize: 10, pointRadius: 6 } as const

const ROLES: Record<PickRole, { readonly title: string; readonly colour: string; readonly shape: string }> = {
  advised: { title: 'advised (where it runs)', colour: '#0072b2', shape: 'diamond' },
  'moved-off': { title: 'what the advice moves users off', colour: '#d55e00', shape: 'square' },
  measured: { title: 'other settings measured on Node', colour: '#bbbbbb', shape: 'circle' },
}

const RUNTIME_NAMES: Readonly<Record<string, string>> = {
  node: 'Node',
  node24: 'Node 24',
  node22: 'Node 22',
  bun: 'Bun',
  deno: 'Deno',
  workerd: 'workerd',
  chromium: 'Chromium',
  firefox: 'Firefox',
}

/**
 * "argon2id m=19456 t=2 p=1 (WASM) · workerd": the setting, the implementation (the label's own
 * parenthesis, else the package) and where it was measured; short, so labels fit beside their points.
 */
export function pickLabel(p: ChartPick): string {
  const implementation =
    /\(([^)]+)\)/.exec(p.label)?.[1] ?? p.candidate.replace(/^ref:/, '').replace(/^@authlab\//, '')
  return `${p.params} (${implementation}) · ${RUNTIME_NAMES[p.runtime] ?? p.runtime}`
}

/** Drawing order: context first, so the advice's own points are drawn on top. */
const DRAWN: readonly PickRole[] = ['measured', 'moved-off', 'advised']

/** A log scale's domain around the values, a third of a decade of room each side. */
function logDomain(values: readonly number[]): [number, number] {
  const [lo, hi] = [Math.min(...values), Math.max(...values)]
  return [lo / 10 ** (1 / 3), hi * 10 ** (1 / 3)]
}

/** Pixels of a value on a log axis of `length` pixels (y: `flip`, up is larger). */
const logPixel = (domain: [number, number], length: number, flip: boolean) => (value: number) => {
  const share = (Math.log(value) - Math.log(domain[0])) / (Math.log(domain[1]) - Math.log(domain[0]))
  return flip ? length * (1 - share) : length * share
}

/**
 * The trade itself, for the settings the advice names: the server's (or platform's) CPU per login
 * across, the attacker's guesses per second per RTX 4090 up, both on log scales. Lower-left is better.
 * Only advised and moved-off settings are labelled; labels are placed in pixels so none overlaps
 * another (src/report/label-placement.ts), with a leader line where one sits away from its point.
 */
export function tradeOffSpec(picks: readonly ChartPick[]): vl.TopLevelSpec {
  const { width, height, fontSize, pointRadius } = TRADE_OFF_PLOT
  const shown = picks
    .filter((p) => p.ms > 0 && p.guessesPerSecond > 0)
    .sort((a, b) => DRAWN.indexOf(a.role) - DRAWN.indexOf(b.role))
  const xDomain = logDomain(shown.map((p) => p.ms))
  const yDomain = logDomain(shown.map((p) => p.guessesPerSecond))
  const [toX, toY] = [logPixel(xDomain, width, false), logPixel(yDomain, height, true)]
  const points = shown.map((p) => ({
    role: ROLES[p.role].title,
    ms: Number(p.ms.toPrecision(3)),
    guesses: Number(p.guessesPerSecond.toPrecision(3)),
    x: toX(p.ms),
    y: toY(p.guessesPerSecond),
  }))
  // Advised first: they get the spots nearest their points.
  const labelled = shown
    .map((p, i) => ({ p, at: points[i] as (typeof points)[number] }))
    .filter(({ p }) => p.role !== 'measured')
    .sort((a, b) => Number(b.p.role === 'advised') - Number(a.p.role === 'advised'))
  const placed = placeLabels(
    labelled.map(({ p, at }) => ({ text: pickLabel(p), x: at.x, y: at.y })),
    points,
    { width, height, fontSize, pointRadius },
  )
  const scale = { type: 'log', domain: xDomain, nice: false }
  const x = {
    field: 'ms',
    type: 'quantitative',
    title: 'CPU ms per login where it runs (log; left is cheaper)',
    scale,
  }
  const y = {
    field: 'guesses',
    type: 'quantitative',
    // Two lines: vega's estimate of a one-line title's length is taller than the plot, and pads the SVG.
    title: ['attacker guesses/s per RTX 4090', '(log; lower is better)'],
    scale: { ...scale, domain: yDomain },
  }
  const roles = Object.values(ROLES)
  const pixel = (field: string) => ({ field, type: 'quantitative', scale: null, axis: null })
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    // Two short lines: vega sizes the SVG by its own (generous) estimate of the title's width.
    title: {
      text: 'What a login costs you against what a guess costs an attacker',
      subtitle: 'the settings the advice names, each where it was measured',
    },
    width,
    height,
    layer: [
      {
        data: {
          values: placed.flatMap((l) =>
            l.leader ? [{ x: l.leader.x, y: l.leader.y, x2: l.x, y2: l.y }] : [],
          ),
        },
        mark: { type: 'rule', color: '#888888', strokeWidth: 0.8 },
        encoding: { x: pixel('x'), y: pixel('y'), x2: { field: 'x2' }, y2: { field: 'y2' } },
      },
      {
        data: { values: points },
        mark: { type: 'point', filled: true, size: 90, opacity: 1 },
        encoding: {
          x,
          y,
          color: {
            field: 'role',
            type: 'nominal',
            title: null,
            scale: { domain: roles.map((r) => r.title), range: roles.map((r) => r.colour) },
          },
          shape: {
            field: 'role',
            type: 'nominal',
            scale: { domain: roles.map((r) => r.title), range: roles.map((r) => r.shape) },
          },
        },
      },
      ...(['start', 'end'] as const).map((anchor) => ({
        data: { values: placed.filter((l) => l.anchor === anchor) },
        // Clipped to the plot: vega's own estimate of a text's width (without a canvas to measure it)
        // is wider than the glyphs and would pad the SVG; placement keeps every label inside anyway.
        mark: {
          type: 'text',
          baseline: 'middle',
          align: anchor === 'start' ? 'left' : 'right',
          fontSize,
          clip: true,
        },
        encoding: { x: pixel('x'), y: pixel('y'), text: { field: 'text' } },
      })),
    ],
    config: { legend: { orient: 'bottom', columns: 1, labelLimit: 0 }, view: { stroke: '#dddddd' } },
  }
  return spec as unknown as vl.TopLevelSpec
}
