import { basename, join } from 'node:path'
import { costLines } from '../advice/cost-lines.js'
import { choices, Evidence } from '../advice/evidence.js'
import { isAcrossRuntimes } from '../advice/runtime-costs.js'
import { ADVICE_COLUMNS, adviceCells } from './advice-report.js'
import { adviceRows } from './advice-table.js'
import {
  absentLines,
  COST_HEADERS,
  costCells,
  FIRST_FIGURE_COLUMN,
  nonLinearLines,
  referenceLines,
} from './costs-table.js'
import { markdownText } from './escape.js'
import { alignedTable } from './markdown.js'
import {
  betterAuthFloorLine,
  limitSources,
  PLATFORM_COLUMNS,
  platformNotes,
  platformRows,
} from './platform-table.js'
import { type BlockContext, tradeOffChartPath } from './readme-blocks.js'

/** How a platform row is chosen and what its figure is, said once under the table. */
const PLATFORM_RULE =
  "Each row: of the hasher settings measured in that platform's runtime (its column of the cross-runtime run) that meet OWASP's floor, fit its memory and are not refused there, those within its time limit; of them, the one against which an RTX 4090 makes the fewest guesses in the time a login costs there. The figure is CPU ms per hash of the runtime's own process (workerd: its CPU time read from /proc around each batch, what Cloudflare counts; Node, Bun and Deno: `process.cpuUsage()`), in a browser wall ms."

/** Machine, runtimes, runs and method in one short list, linked to the runs. */
function provenance({ runs, files, toRoot }: BlockContext): string[] {
  const cpus = [...new Set(runs.map((r) => `${r.environment.cpu}, ${r.environment.cores} cores`))].join('; ')
  const runtimes = [...new Set(runs.map((r) => r.environment.runtime))].join(', ')
  const across = [
    ...new Set(
      runs
        .filter(isAcrossRuntimes)
        .flatMap((r) => (r.environment.runtimes ?? []).map((x) => `${x.name} ${x.version}`)),
    ),
  ].join(', ')
  const links = files.map((f) => `[${basename(f, '.json')}](${join(toRoot, f)})`).join(', ')
  const loads = runs.map((r) => `${r.environment.loadAverage[0]}→${r.run.loadAverageAtEnd[0]}`).join(', ')
  return [
    `- **Machine**: ${markdownText(cpus)}, load average ${loads} (each run, start→end)`,
    `- **Runtime**: ${markdownText(runtimes)}${across ? `; across runtimes: ${markdownText(across)}` : ''}; **runs**: ${links}`,
    '- **Method**: CPU time per verify on Node, per hash in the other runtimes, median of the runs; attacker rates are published hashcat figures, scaled to each setting ([sources](#what-each-hasher-setting-costs))',
  ]
}

/** The platform table, the rule, and each plain sentence the runs call for. */
function platformSection(ctx: BlockContext): string[] {
  const rows = platformRows(ctx.runs)
  const server = choices(new Evidence(ctx.runs)).server
  const betterAuth = betterAuthFloorLine(ctx.runs, server?.params)
  return [
    '**Where the login runs**',
    '',
    ...alignedTable(
      PLATFORM_COLUMNS,
      rows.map((r) => [...r.cells]),
      () => false,
    ),
    '',
    PLATFORM_RULE,
    '',
    limitSources(),
    '',
    ...[...platformNotes(ctx.runs), ...(betterAuth ? [betterAuth] : [])].map((l) => `- ${l}`),
  ]
}

/** The root README's first screen: the "which to use" tables, the trade-off chart and where they come from. */
export function adviceFigures(ctx: BlockContext): string {
  const table = alignedTable(ADVICE_COLUMNS, adviceRows(ctx.runs).map(adviceCells), () => false)
  const chart = join(ctx.toRoot, tradeOffChartPath(ctx.files))
  return [
    ...table,
    '',
    `![Server CPU per login against attacker guesses per second per GPU, the settings the advice names](${chart})`,
    '',
    ...platformSection(ctx),
    '',
    ...provenance(ctx),
  ].join('\n')
}

/** Every hasher setting's cost to the server and to an attacker, with each attacker figure's source. */
export function costsFigures(ctx: BlockContext): string {
  const lines = costLines(ctx.runs, ctx.claims)
  const notes = nonLinearLines(lines)
  const absent = absentLines(lines)
  return [
    ...alignedTable([...COST_HEADERS], lines.map(costCells), (i) => i >= FIRST_FIGURE_COLUMN),
    '',
    ...(absent.length > 0
      ? ['— The hasher does not run there:', '', ...absent.map((l) => `- ${l}`), '']
      : []),
    'Attacker figures: the published rate at hashcat’s reference setting, scaled by the work per guess',
    '(bcrypt 2^cost, PBKDF2 iterations, scrypt N·r·p, argon2id m·t). References and prices:',
    '',
    ...referenceLines(lines).map((l) => `- ${l}`),
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
