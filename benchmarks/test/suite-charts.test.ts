import { expect, test } from 'vitest'
import type { Row, SuiteRecord } from '../src/model/types.js'
import { renderSvg } from '../src/report/charts.js'
import { suiteCharts } from '../src/report/suite-charts.js'
import { ratioOf, reportOptions, roundsAround, syntheticResults } from './fixtures.js'

const count = (svg: string, role: string) => svg.split(`aria-roledescription="${role}"`).length - 1
const [ids, lag] = syntheticResults().suites
if (!ids || !lag) throw new Error('fixture has two suites')

const { views } = await reportOptions()
/** A suite record of these rows, its charts as its view draws them. */
const charts = (name: string, rows: readonly Row[]) =>
  suiteCharts(
    { name, description: '', method: '', processRounds: false, notes: [], failures: [], rows },
    views(name),
    2,
  )

const row = (over: Partial<Row> & Pick<Row, 'group' | 'label' | 'value'>): Row => ({
  suite: 'x',
  key: { setting: over.group, operation: '' },
  candidate: over.label,
  unit: 'x',
  higherIsBetter: true,
  ratios: [],
  details: {},
  flags: [],
  ...over,
})

test('ids: IDs/s beside retained heap per survivor, and the ratio chart with the rounds as dots', async () => {
  const withHeap: SuiteRecord = {
    ...ids,
    rows: ids.rows.map((r, i) => ({ ...r, details: { ...r.details, 'heap B/survivor': 40 + 10 * i } })),
  }
  const drawn = suiteCharts(withHeap, views('ids'), 2)
  expect(drawn.map((c) => c.name)).toEqual(['speed-and-heap', 'ids-s'])
  const [speedAndHeap, ratios] = await Promise.all(drawn.map((c) => renderSvg(c.spec)))
  expect(speedAndHeap).toContain('bytes per survivor (lower is better)')
  expect(count(speedAndHeap as string, 'bar')).toBe(2 * ids.rows.length)
  // Labels are escaped by the renderer: a package name cannot break the XML.
  expect(ratios).toContain('authlab fast &lt;&amp;&gt;')
  const rounds = ids.rows.reduce((n, r) => n + (r.ratios[0]?.rounds.length ?? 0), 0)
  expect(count(ratios as string, 'point')).toBe(rounds)
  // The flagged row and the A/A control carry their own legend entries.
  expect(ratios).toContain('flagged ⚠ (see table)')
  expect(ratios).toContain('A/A control')
})

test('lag: max and p99 delay side by side, coloured by where the hasher runs', async () => {
  const [chart] = suiteCharts(lag, views('lag'), 2)
  const svg = await renderSvg(chart?.spec as never)
  expect(svg).toContain('p99 event-loop delay')
  expect(count(svg, 'bar')).toBe(4)
})

test('login: throughput and GET /health p99 on the same rows, in the left panel’s order', async () => {
  const group = 'login · express · bcrypt cost 10'
  const rows = [
    ['bcrypt (native)', 70, 14],
    ['bcryptjs (main thread)', 90, 159],
  ].map(([label, value, p99]) =>
    row({
      suite: 'http',
      group,
      key: { setting: 'express/bcrypt:cost=10', operation: 'login' },
      label: label as string,
      value: value as number,
      unit: 'logins/s',
      details: { 'GET /health p99 ms': p99 as number },
    }),
  )
  const [chart] = charts('http', rows)
  const svg = await renderSvg(chart?.spec as never)
  expect(svg).toContain('GET /health p99 meanwhile')
  // Both panels list bcryptjs first (more logins/s): its 159 ms p99 bar is on its row, at its height.
  const bars = [
    ...svg.matchAll(
      /aria-label="[^"]*label: ([^;]*); [^"]*value: ([\d.]+)[^"]*"[^>]*aria-roledescription="bar" d="M0,([\d.]+)/g,
    ),
  ]
  const at = (label: string, value: string) => bars.find((b) => b[1] === label && b[2] === value)?.[3]
  expect(bars).toHaveLength(4)
  expect(at('bcryptjs (main thread)', '90')).toBe(at('bcryptjs (main thread)', '159'))
  expect(at('bcrypt (native)', '70')).toBe(at('bcrypt (native)', '14'))
  expect(Number(at('bcryptjs (main thread)', '90'))).toBeLessThan(Number(at('bcrypt (native)', '70')))
})

test('concurrency: speed-up per hasher against the min(K, cores) limit line', async () => {
  const rows = [1, 2, 8].map((k) =>
    row({
      suite: 'concurrency',
      group: `K=${k}`,
      label: 'argon2id',
      value: 10 * Math.min(k, 2) * 0.9,
      unit: 'hashes/s',
      details: { 'limit hashes/s': 20 },
      ratios: k === 1 ? [] : [ratioOf({ label: 'K=1', against: 'K=1' }, roundsAround(0.9))],
    }),
  )
  const drawn = charts('concurrency', rows)
  expect(drawn.map((c) => c.name)).toEqual(['speed-up'])
  const svg = await renderSvg(drawn[0]?.spec as never)
  expect(svg).toContain('limit: cores ÷ hash time (2 cores)')
  expect(count(svg, 'line mark')).toBe(2)
})

test('a group of yes/no figures is left to its table', () => {
  const rows = [row({ group: 'compatibility', label: 'redis', value: 1, unit: 'compatible' })]
  expect(charts('stores', rows)).toEqual([])
})
