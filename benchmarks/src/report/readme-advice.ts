import { basename, join } from 'node:path'
import { settingCosts } from '../advice/costs.js'
import { ADVICE_COLUMNS, adviceCells } from './advice-report.js'
import { adviceRows } from './advice-table.js'
import { COST_HEADERS, costCells, nonLinearLines, referenceLines, sortedCosts } from './costs-table.js'
import { markdownText } from './escape.js'
import { alignedTable } from './markdown.js'
import { type BlockContext, tradeOffChartPath } from './readme-blocks.js'

/** Machine, Node, runs and method in one short list, linked to the runs. */
function provenance({ runs, files, toRoot }: BlockContext): string[] {
  const env = (runs.at(0) as BlockContext['runs'][number]).environment
  const runtimes = [...new Set(runs.map((r) => r.environment.runtime))].join(', ')
  const links = files.map((f) => `[${basename(f, '.json')}](${join(toRoot, f)})`).join(', ')
  const loads = runs.map((r) => `${r.environment.loadAverage[0]}→${r.run.loadAverageAtEnd[0]}`).join(', ')
  return [
    `- **Machine**: ${markdownText(env.cpu)}, ${env.cores} cores, load average ${loads} (each run, start→end)`,
    `- **Runtime**: ${markdownText(runtimes)}; **runs**: ${links}`,
    '- **Method**: CPU time per verify, median of the runs; attacker rates are published hashcat figures on one RTX 4090, scaled to each setting ([sources](#what-each-hasher-setting-costs))',
  ]
}

/** The root README's first screen: the "which to use" table, the trade-off chart and where they come from. */
export function adviceFigures(ctx: BlockContext): string {
  const table = alignedTable(ADVICE_COLUMNS, adviceRows(ctx.runs, ctx.portable).map(adviceCells), () => false)
  const chart = join(ctx.toRoot, tradeOffChartPath(ctx.files))
  return [
    ...table,
    '',
    `![Server CPU per login against attacker guesses per second per GPU, every hasher setting](${chart})`,
    '',
    ...provenance(ctx),
  ].join('\n')
}

/** Every hasher setting's cost to the server and to an attacker, with each attacker figure's source. */
export function costsFigures(ctx: BlockContext): string {
  const costs = sortedCosts(settingCosts(ctx.runs))
  const notes = nonLinearLines(costs)
  return [
    ...alignedTable([...COST_HEADERS], costs.map(costCells), (i) => i >= 3),
    '',
    'Attacker figures: the published rate at hashcat’s reference setting, scaled by the work per guess',
    '(bcrypt 2^cost, PBKDF2 iterations, scrypt N·r·p, argon2id m·t). References:',
    '',
    ...referenceLines(costs).map((l) => `- ${l}`),
    ...(notes.length > 0
      ? [
          '',
          '† Not linear: the memory per guess differs from the reference’s, so the card holds a different number at once:',
          '',
          ...notes.map((l) => `- ${l}`),
        ]
      : []),
    '',
    ...provenance(ctx),
  ].join('\n')
}
