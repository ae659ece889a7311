import { expect, test } from 'vitest'
import { barChartSpec, lineChartSpec, renderSvg, sideBySideSpec } from '../src/report/charts.js'

const count = (svg: string, role: string) => svg.split(`aria-roledescription="${role}"`).length - 1
const LONG = 'PBKDF2-SHA256 (node:crypto) vs PBKDF2-SHA256 (WebCrypto, crypto.subtle) at 600,000 iterations'

test('bars: one mark per bar, sorted, with axis, legend, whiskers and labels of any length', async () => {
  const svg = await renderSvg(
    barChartSpec({
      title: 'IDs per second',
      axis: 'IDs/s (higher is better)',
      bars: [
        { label: 'slow', value: 1, low: 0.9, high: 1.1, series: 'measured' },
        { label: LONG, value: 3, low: 2.5, high: 3.5, series: 'measured' },
        { label: 'baseline', value: 2, series: 'baseline' },
      ],
      reference: { value: 2, label: 'baseline' },
    }),
  )
  expect(count(svg, 'bar')).toBe(3)
  expect(count(svg, 'legend')).toBe(1)
  expect(count(svg, 'axis')).toBe(2)
  expect(count(svg, 'rule mark')).toBeGreaterThanOrEqual(4) // three whiskers and the reference
  expect(svg).toContain(LONG)
  expect(svg).toContain('IDs/s (higher is better)')
  // Sorted: the largest bar's label comes first in the y axis.
  expect(svg.indexOf(LONG)).toBeLessThan(svg.indexOf('>slow<'))
})

test('side by side: throughput and p99 on the same rows, each with its own axis', async () => {
  const rows = ['bcrypt (native)', 'bcryptjs (main thread)']
  const svg = await renderSvg(
    sideBySideSpec(
      {
        title: 'logins/s',
        axis: 'logins/s',
        bars: rows.map((label, i) => ({ label, value: 10 - i, series: 'measured' })),
      },
      {
        title: 'GET /health p99',
        axis: 'ms (lower is better)',
        bars: rows.map((label, i) => ({ label, value: 14 + i * 145, series: 'measured' })),
      },
    ),
  )
  expect(count(svg, 'bar')).toBe(4)
  expect(svg).toContain('GET /health p99')
})

test('lines: a series per candidate with its band', async () => {
  const points = [1, 2, 4].flatMap((x) => [
    { series: 'argon2id', x, y: Math.min(x, 2) * 0.9, low: Math.min(x, 2) * 0.8, high: Math.min(x, 2) },
    { series: 'limit (cores ÷ hash time)', x, y: Math.min(x, 2) },
  ])
  const svg = await renderSvg(lineChartSpec({ title: 'speed-up', xAxis: 'K', yAxis: '× one hash', points }))
  expect(svg).toContain('limit (cores ÷ hash time)')
  expect(count(svg, 'line mark')).toBe(2)
})
