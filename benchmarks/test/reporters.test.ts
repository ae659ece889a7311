import { describe, expect, test } from 'vitest'
import type { ResultsFile } from '../src/model/types.js'
import { formatNumber } from '../src/report/format.js'
import { renderMarkdown } from '../src/report/markdown.js'
import { runDocument } from '../src/report/run-document.js'
import { renderTerminal } from '../src/report/terminal.js'
import { reportOptions, syntheticResults } from './fixtures.js'

const results = syntheticResults()
const [ids, lag] = results.suites
if (!ids || !lag) throw new Error('fixture has two suites')

/** A run's Markdown report, its charts named as the files a run writes. */
const markdown = async (run: ResultsFile) =>
  renderMarkdown(
    await runDocument(run, {
      ...(await reportOptions()),
      charts: (suite) => [{ id: suite, title: `${suite} chart`, svg: '', file: `chart-${suite}.svg` }],
      strips: false,
    }),
  )

describe('reporters (golden files; regenerate with `npx vitest run benchmarks -u` and review the diff)', () => {
  test('Markdown report', async () => {
    await expect(await markdown(results)).toMatchFileSnapshot('./golden/report.golden.md')
  })

  test('flagged rows are marked in every reporter instead of being printed as fact', async () => {
    expect(await markdown(results)).toContain('⚠ _randomInt \\| per char_')
    expect(renderTerminal(ids, {}, { color: true, wide: false })).toContain('\u001b[33m')
  })

  test('terminal output without color is plain text', () => {
    const text = renderTerminal(ids, {}, { color: false, wide: true })
    expect(text).not.toContain('\u001b[')
    expect(text).toContain('× vs crypto.randomUUID() [ref]')
  })

  test('rows measured in several runtimes get a runtime column (Markdown, wide terminal) or name it (compact)', async () => {
    const rows = lag.rows.flatMap((row) => ['node', 'bun'].map((runtime) => ({ ...row, runtime })))
    const runtimes = { ...results, suites: [{ ...lag, rows }] }
    const text = await markdown(runtimes)
    expect(text).toMatch(/\| candidate +\| +node +\| +bun +\| +flags +\|/)
    expect(text).toMatch(/\| main-thread hasher +\| +75 +\| +75 +\|/)
    expect(renderTerminal({ ...lag, rows }, {}, { color: false, wide: false })).toContain(
      'main-thread hasher · bun',
    )
  })

  test('number formatting', () => {
    expect(formatNumber(1234567.8)).toBe('1,234,568')
    expect(formatNumber(123.4)).toBe('123')
    expect(formatNumber(12.34)).toBe('12.3')
    expect(formatNumber(1.234)).toBe('1.23')
    expect(formatNumber(0.001234)).toBe('0.00123')
    expect(formatNumber(0)).toBe('0')
    expect(formatNumber(19)).toBe('19')
  })
})
