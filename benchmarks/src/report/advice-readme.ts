import { basename, join } from 'node:path'
import type { ResultsFile } from '../results/results.js'
import { adviceRows } from './advice.js'
import { COST_HEADERS, costCells, nonLinearLines, referenceLines, sortedCosts } from './advice-costs.js'
import { settingCosts } from './advice-data.js'
import { markdownText } from './escape.js'
import { alignedTable } from './figures.js'

/** The trade-off chart of a block, beside the block's first results file. */
export function tradeOffChartPath(files: readonly string[]): string {
  const first = files[0] as string
  return join(
    first.slice(0, first.length - basename(first).length),
    `${basename(first, '.json')}-advice-trade-off.svg`,
  )
}

/** Machine, Node, runs and method in one short list, linked to the runs. */
function provenance(runs: readonly ResultsFile[], files: readonly string[], toRoot: string): string[] {
  const env = (runs.at(0) as ResultsFile).environment
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
export function adviceFigures(
  runs: readonly ResultsFile[],
  files: readonly string[],
  toRoot: string,
): string {
  const rows = adviceRows(runs).map((r) => [r.need, r.use, r.why, r.cost])
  const table = alignedTable(['need', 'use', 'why (measured)', 'what it costs'], rows, () => false)
  const chart = join(toRoot, tradeOffChartPath(files))
  return [
    ...table,
    '',
    `![Server CPU per login against attacker guesses per second per GPU, every hasher setting](${chart})`,
    '',
    ...provenance(runs, files, toRoot),
  ].join('\n')
}

/** Every hasher setting's cost to the server and to an attacker, with each attacker figure's source. */
export function costsFigures(runs: readonly ResultsFile[], files: readonly string[], toRoot: string): string {
  const costs = sortedCosts(settingCosts(runs))
  const table = alignedTable([...COST_HEADERS], costs.map(costCells), (i) => i >= 3)
  const notes = nonLinearLines(costs)
  return [
    ...table,
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
    ...provenance(runs, files, toRoot),
  ].join('\n')
}
