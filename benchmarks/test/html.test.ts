import { describe, expect, test } from 'vitest'
import type { SuiteRecord } from '../src/model/types.js'
import { barChartSpec, renderSvg } from '../src/report/charts.js'
import { renderRunHtml } from '../src/report/files.js'
import { renderHtml } from '../src/report/html.js'
import { reportOptions, syntheticResults } from './fixtures.js'

test('one self-contained page: environment first, charts inline, text escaped, nothing fetched', async () => {
  const svg = await renderSvg(
    barChartSpec({ title: 'IDs/s', axis: 'IDs/s', bars: [{ label: 'a', value: 1, series: 'measured' }] }),
  )
  const html = renderHtml({
    title: 'authlab results <run>',
    environment: [
      ['CPU', 'AMD EPYC'],
      ['commit', 'abc1234'],
    ],
    sections: [
      {
        heading: 'ids',
        charts: [{ id: 'ids-speed', title: 'IDs/s', svg }],
        tables: [{ columns: ['candidate', 'IDs/s'], rows: [['<script>alert(1)</script>', '1']] }],
        notes: ['undecided (n = 2): fewer than 5 rounds'],
      },
    ],
  })
  expect(html.indexOf('AMD EPYC')).toBeLessThan(html.indexOf('<h2>ids</h2>'))
  expect(html).toContain('<svg')
  expect(html).not.toContain('<script>alert')
  expect(html).toContain('&lt;script&gt;')
  expect(html).not.toMatch(/(src|href)="https?:/)
  expect(html).not.toContain('<script')
})

describe('the run report', () => {
  test('environment, reading guide, every suite with charts, tables, strips, flags and noise floor explained', async () => {
    const results = syntheticResults()
    const html = await renderRunHtml(results, await reportOptions())
    expect(html.indexOf('Synthetic CPU, 2 cores')).toBeLessThan(html.indexOf('id="ids"'))
    expect(html).toContain('A/A control (IDs/s)')
    expect(html).toContain('the harness mismeasured')
    for (const suite of results.suites) expect(html).toContain(`<section id="${suite.name}">`)
    // One strip per ids row (all have rounds); lag rows have none.
    const ids = html.slice(html.indexOf('id="ids"'), html.indexOf('id="lag"'))
    expect(ids.split('<td class="strip">').length - 1).toBe(results.suites[0]?.rows.length)
    expect(html.split('<figure class="chart"').length - 1).toBeGreaterThanOrEqual(2)
    expect(html).toContain('<tr class="flagged">')
    expect(html).not.toContain('<script')
  })

  test('rows that carry a runtime become one column per runtime', async () => {
    const results = syntheticResults()
    const lag = results.suites[1] as SuiteRecord
    const rows = lag.rows.flatMap((row) =>
      ['node', 'bun'].map((runtime, i) => ({ ...row, runtime, value: row.value * (i + 1) })),
    )
    const html = await renderRunHtml({ ...results, suites: [{ ...lag, rows }] }, await reportOptions())
    expect(html).toContain('<th>node</th><th>bun</th>')
    expect(html).toContain('<td class="text">main-thread hasher</td><td>75</td><td>150</td>')
  })
})
