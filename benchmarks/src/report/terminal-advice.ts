import { settingCosts } from '../advice/costs.js'
import type { ResultsFile } from '../model/types.js'
import { answered } from './advice-report.js'
import { costsText, nonLinearLines, referenceLines } from './costs-table.js'
import { terminalLines } from './escape.js'
import { COMPACT_WIDTH, type TerminalOptions, wrap } from './wrap.js'

/** What the terminal prints first after a run: the advice and the costs, as the README states them. */
export function renderAdvice(
  results: ResultsFile,
  portable: ReadonlySet<string>,
  options: TerminalOptions,
): string {
  const rows = answered(results, portable)
  const { wide } = options
  const width = options.width ?? COMPACT_WIDTH
  // The per-setting costs table is long: the reports always hold it, the terminal only under --wide.
  const costs = wide ? settingCosts([results]) : []
  if (rows.length === 0 && costs.length === 0) return ''
  // No blank line before it: the compact output keeps to one screen's worth of lines.
  const lines = ['Which to use, from this run (attacker rates: published hashcat figures, scaled):']
  for (const r of rows) {
    // What to use and its cost's first clause in sight; why (the figure behind it) and the whole cost
    // under --wide and in the reports.
    const cost = r.cost?.split('; ')[0] ?? ''
    if (wide) lines.push(`  ${r.need}: ${r.use}`, `    why: ${r.why}`, `    cost: ${r.cost}`)
    else lines.push(...wrap(`${r.need}: ${r.use} · ${cost}`, width, '    ', '  '))
  }
  if (costs.length > 0) {
    lines.push('', 'What each hasher setting costs:', ...costsText(costs).map((l) => `  ${l}`))
    lines.push(...[...referenceLines(costs), ...nonLinearLines(costs)].map((l) => `  ${l}`))
  }
  // Labels come from a results file: control characters never reach the terminal.
  return `${terminalLines(lines.join('\n'))}\n`
}
