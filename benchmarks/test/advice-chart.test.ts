import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { ChartPick } from '../src/advice/picks.js'
import { pickLabel, TRADE_OFF_PLOT, tradeOffSpec } from '../src/report/advice-chart.js'
import { tradeOffCharts } from '../src/report/advice-chart-files.js'
import { renderSvg } from '../src/report/charts.js'
import { readResults } from '../src/stats/decide.js'
import { ROOT } from './fixtures.js'

/**
 * Every text the chart's marks draw (its labels; axes, titles and legend are vega's own) as a box,
 * measured conservatively from the SVG alone: each character 0.65 em wide (DejaVu Sans, Chromium's
 * sans-serif on Linux, draws its digits 0.636 em wide and most letters narrower), from 1 em above the
 * baseline to 0.25 em below it. Coordinates are the mark group's, which all labels share.
 */
function labelBoxes(svg: string) {
  const groups = [...svg.matchAll(/<g class="mark-text role-mark[^"]*"[^>]*>(.*?)<\/g>/g)]
  return groups.flatMap((g) =>
    [
      ...(g[1] as string).matchAll(
        /<text[^>]*text-anchor="(\w+)"[^>]*transform="translate\(([-\d.]+),([-\d.]+)\)"[^>]*font-size="([\d.]+)px"[^>]*>([^<]*)<\/text>/g,
      ),
    ].map(([, anchor, x, y, size, text]) => {
      const [fs, w] = [Number(size), [...(text as string)].length * Number(size) * 0.65]
      const x0 = anchor === 'start' ? Number(x) : anchor === 'end' ? Number(x) - w : Number(x) - w / 2
      return { text: text as string, x0, x1: x0 + w, y0: Number(y) - fs, y1: Number(y) + 0.25 * fs }
    }),
  )
}

type Box = ReturnType<typeof labelBoxes>[number]
const overlapping = (boxes: readonly Box[]) =>
  boxes.flatMap((a, i) =>
    boxes
      .slice(i + 1)
      .filter((b) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1)
      .map((b) => `${a.text} | ${b.text}`),
  )

function expectLegible(svg: string, labels: number) {
  const boxes = labelBoxes(svg)
  expect(boxes.map((b) => b.text).length).toBe(labels)
  expect(overlapping(boxes)).toEqual([])
  for (const b of boxes) {
    expect(b.x0).toBeGreaterThanOrEqual(0)
    expect(b.x1).toBeLessThanOrEqual(TRADE_OFF_PLOT.width)
  }
  // Narrower than GitHub's narrowest README column (about 830 px): drawn at its own size, never scaled down.
  expect(Number(/<svg[^>]* width="(\d+)"/.exec(svg)?.[1])).toBeLessThanOrEqual(830)
}

describe('the trade-off chart reads at a glance', () => {
  test("the README's chart: one labelled point per setting the advice names, no two labels overlapping", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    const [chart] = await tradeOffCharts(readme, (f) => readResults(join(ROOT, f)))
    expect(chart).toBeDefined()
    expectLegible(chart?.svg as string, labelBoxes(chart?.svg as string).length)
    expect(labelBoxes(chart?.svg as string).length).toBeGreaterThanOrEqual(3)
  })

  test('a crowd of picks a few ms apart still gets every label, clear of the others', async () => {
    const crowd: ChartPick[] = ['workerd', 'bun', 'deno', 'node24', 'chromium', 'firefox', 'node'].flatMap(
      (runtime, i) => [
        {
          candidate: '@authlab/hash-wasm',
          label: 'argon2id (WASM)',
          params: 'argon2id m=19456 t=2 p=1',
          runtime,
          for: [runtime],
          ms: 30 + i,
          guessesPerSecond: 8600,
          role: 'advised' as const,
        },
        {
          candidate: '@authlab/hash-scrypt',
          label: 'scrypt (node:crypto)',
          params: 'scrypt ln=14 r=8 p=5',
          runtime,
          for: [runtime],
          ms: 140 + 3 * i,
          guessesPerSecond: 1425,
          role: i === 0 ? ('moved-off' as const) : ('advised' as const),
        },
      ],
    )
    const svg = await renderSvg(tradeOffSpec(crowd))
    expectLegible(svg, crowd.length)
    expect(labelBoxes(svg).map((b) => b.text)).toContain(pickLabel(crowd[0] as ChartPick))
  })

  test('the check itself: two labels drawn on one spot are found', () => {
    const text = (t: string) =>
      `<text text-anchor="start" transform="translate(10,20)" font-family="sans-serif" font-size="10px">${t}</text>`
    const svg = `<svg width="700"><g class="mark-text role-mark layer_2_marks">${text('one')}${text('two')}</g></svg>`
    expect(overlapping(labelBoxes(svg))).toEqual(['one | two'])
  })
})
