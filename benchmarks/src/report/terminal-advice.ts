import { costLines } from '../advice/cost-lines.js'
import type { RuntimeClaim } from '../discover/runtime-claims.js'
import type { ResultsFile } from '../model/types.js'
import { answered } from './advice-report.js'
import { absentLines, costsText, nonLinearLines, referenceLines } from './costs-table.js'
import { terminalLines } from './escape.js'
import { COMPACT_WIDTH, type TerminalOptions, wrap } from './wrap.js'

/** What the terminal prints first after a run: the advice and the costs, as the README states them. */
export function renderAdvice(
  results: ResultsFile,
  claims: ReadonlyMap<string, RuntimeClaim>,
  options: TerminalOptions,
): string {
  const rows = answered(results)
  const { wide } = options
  const width = options.width ?? COMPACT_WIDTH
  // The per-setting costs table is long: the reports always hold it, the terminal only under --wide.
  const costs = wide ? costLines([results], claims) : []
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
    const notes = [...absentLines(costs), ...referenceLines(costs), ...nonLinearLines(costs)]
    lines.push(...notes.map((l) => `  ${l}`))
  }
  // Labels come from a results file: control characters never reach the terminal.
  return `${terminalLines(lines.join('\n'))}\n`
}
