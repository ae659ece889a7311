import { expect, test } from 'vitest'
import { barChartSpec, renderSvg } from '../src/report/charts.js'
import { renderHtml } from '../src/report/html.js'

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
        charts: [svg],
        table: { columns: ['candidate', 'IDs/s'], rows: [['<script>alert(1)</script>', '1']] },
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
