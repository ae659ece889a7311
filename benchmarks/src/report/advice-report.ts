import type { ResultsFile } from '../results/results.js'
import { type AdviceRow, adviceRows } from './advice.js'
import { tradeOffSpec } from './advice-chart.js'
import {
  COST_HEADERS,
  costCells,
  costsText,
  nonLinearLines,
  referenceLines,
  sortedCosts,
} from './advice-costs.js'
import { settingCosts } from './advice-data.js'
import { renderSvg } from './charts.js'
import { terminalLines } from './escape.js'
import type { HtmlSection } from './html.js'
import { COMPACT_WIDTH, wrap } from './terminal.js'

/** The rows this run can answer: a run of some suites leaves the others' needs unmeasured. */
function answered(results: ResultsFile): AdviceRow[] {
  return adviceRows([results]).filter((r) => !r.why.startsWith('not measured'))
}

/** What the terminal prints first after a run: the advice and the costs, as the README states them. */
export function adviceTerminal(results: ResultsFile, wide = false, width = COMPACT_WIDTH): string {
  const rows = answered(results)
  // The per-setting costs table is long: the reports always hold it, the terminal only under --wide.
  const costs = wide ? settingCosts([results]) : []
  if (rows.length === 0 && costs.length === 0) return ''
  // No blank line before it: the compact output keeps to one screen's worth of lines.
  const lines = ['Which to use, from this run (attacker rates: published hashcat figures, scaled):']
  for (const r of rows) {
    // What to use and its cost's first clause in sight; why (the figure behind it) and the whole cost
    // under --wide and in the reports.
    const cost = r.cost.split('; ')[0]
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

/** The HTML report's first section: the same table, the trade-off chart and the costs. */
export async function adviceSection(results: ResultsFile): Promise<HtmlSection | undefined> {
  const rows = answered(results)
  const costs = sortedCosts(settingCosts([results]))
  if (rows.length === 0 && costs.length === 0) return undefined
  const charts =
    costs.length > 0
      ? [
          {
            id: 'advice-trade-off',
            title: 'Server CPU per login against attacker guesses per second per GPU',
            svg: await renderSvg(tradeOffSpec(costs)),
          },
        ]
      : []
  return {
    id: 'advice',
    heading: 'Which to use, from this run',
    intro:
      'Each row names what to use for a need, why (a figure of this run) and what it costs; attacker rates are published hashcat figures on one RTX 4090, scaled to each setting.',
    charts,
    tables: [
      {
        columns: ['need', 'use', 'why (measured)', 'what it costs'],
        rows: rows.map((r) => [r.need, r.use, r.why, r.cost]),
      },
      ...(costs.length > 0
        ? [
            {
              caption: 'What each hasher setting costs',
              columns: [...COST_HEADERS],
              rows: costs.map(costCells),
            },
          ]
        : []),
    ],
    notes: [...referenceLines(costs), ...nonLinearLines(costs)],
  }
}
