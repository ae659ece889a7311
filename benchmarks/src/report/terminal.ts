import { styleText } from 'node:util'
import type { SuiteRecord } from '../results/results.js'
import { groupRows, tableOf } from './format.js'

type Style = Parameters<typeof styleText>[0]

/** Colors only for a terminal that wants them (NO_COLOR, https://no-color.org; FORCE_COLOR wins). */
export function useColor(
  stream: { isTTY?: boolean } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true
  return env.NO_COLOR === undefined && stream.isTTY === true
}

/** One aligned table per group; noisy rows in yellow, flags dimmed, headers bold. */
export function renderTerminal(suite: SuiteRecord, color: boolean): string {
  // The decision is made once by useColor (which also honours FORCE_COLOR), not per stream by styleText.
  const paint = (style: Style, text: string) =>
    color ? styleText(style, text, { validateStream: false }) : text
  const lines = [paint(['bold', 'cyan'], `\n${suite.name}: ${suite.description}`)]
  for (const [group, rows] of groupRows(suite.rows)) {
    const { headers, cells, flagged } = tableOf(rows)
    const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)))
    const line = (cols: readonly string[]) =>
      cols.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ')
    lines.push(paint('bold', `  ${group}`), `  ${paint('bold', line(headers))}`)
    lines.push(...cells.map((c, i) => `  ${flagged[i] ? paint('yellow', line(c)) : line(c)}`))
  }
  for (const note of suite.notes) lines.push(paint('dim', `  note: ${note}`))
  return `${lines.join('\n')}\n`
}
