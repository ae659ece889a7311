import { describe, expect, test } from 'vitest'
import { formatNumber } from '../src/report/format.js'
import { renderMarkdown } from '../src/report/markdown.js'
import { renderTerminal } from '../src/report/terminal.js'
import { syntheticResults } from './fixtures.js'

const results = syntheticResults()
const [ids, lag] = results.suites
if (!ids || !lag) throw new Error('fixture has two suites')

describe('reporters (golden files; regenerate with `npx vitest run benchmarks -u` and review the diff)', () => {
  test('Markdown report', async () => {
    const markdown = renderMarkdown(results, (suite) => [`chart-${suite}.svg`])
    await expect(markdown).toMatchFileSnapshot('./golden/report.golden.md')
  })

  test('flagged rows are marked in every reporter instead of being printed as fact', () => {
    expect(renderMarkdown(results, () => [])).toContain('⚠ _randomInt \\| per char_')
    expect(renderTerminal(ids, { color: true, wide: false })).toContain('\u001b[33m')
  })

  test('terminal output without color is plain text', () => {
    const text = renderTerminal(ids, { color: false, wide: true })
    expect(text).not.toContain('\u001b[')
    expect(text).toContain('× vs crypto.randomUUID() [ref]')
  })

  test('rows measured in several runtimes get a runtime column (Markdown, wide terminal) or name it (compact)', () => {
    const rows = lag.rows.flatMap((row) => ['node', 'bun'].map((runtime) => ({ ...row, runtime })))
    const runtimes = { ...results, suites: [{ ...lag, rows }] }
    expect(renderMarkdown(runtimes, () => [])).toContain('| candidate | runtime | ms max delay |')
    expect(renderMarkdown(runtimes, () => [])).toContain('| main-thread hasher | bun | 75 |')
    expect(renderTerminal({ ...lag, rows }, { color: false, wide: false })).toContain(
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
