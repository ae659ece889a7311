/**
 * What every README figures block shares: its markers, the runs' provenance and where the trade-off
 * chart of an advice block lies. The blocks themselves are src/report/readme*.ts; regenerate() is readme.ts.
 */
import { basename, join } from 'node:path'
import type { RuntimeClaim } from '../discover/runtime-claims.js'
import type { ResultsFile } from '../model/types.js'
import type { Views } from '../model/view.js'
import { markdownCode, markdownText } from './escape.js'

/**
 * A README's figures live between markers naming the results files (from the repository root, oldest
 * first) and a kind, or in a package's README the candidate:
 *   <!-- figures from benchmarks/results/<stem>.json[,<stem2>.json,…] [candidate <id> | <kind>] -->
 *   …generated…
 *   <!-- /figures -->
 * Several files are consecutive runs: a verdict is quoted only where they agree (src/stats/held.ts).
 */
export const BLOCK =
  /<!-- figures from (\S+)(?: candidate (\S+)| (findings|defaults|advice|costs|runtimes))? -->\n[\s\S]*?<!-- \/figures -->/g

export type BlockKind = 'findings' | 'defaults' | 'advice' | 'costs' | 'runtimes'

export interface FigureBlock {
  readonly files: readonly string[]
  readonly candidate?: string
  readonly kind?: BlockKind
}

export function figureBlocks(readme: string): FigureBlock[] {
  return [...readme.matchAll(BLOCK)].map((m) => ({
    files: (m[1] as string).split(','),
    ...(m[2] ? { candidate: m[2] } : {}),
    ...(m[3] ? { kind: m[3] as BlockKind } : {}),
  }))
}

/** What a block is rendered with: its runs, their files, the way to the root, and the suites' views. */
export interface BlockContext {
  readonly runs: readonly ResultsFile[]
  readonly files: readonly string[]
  /** From the README's folder to the repository root. */
  readonly toRoot: string
  readonly root: string
  readonly views: Views
  /** Where each strategy package says it runs (src/discover/runtime-claims.ts): the costs table's reasons. */
  readonly claims: ReadonlyMap<string, RuntimeClaim>
}

/** The trade-off chart of a block, beside the block's first results file. */
export function tradeOffChartPath(files: readonly string[]): string {
  const first = files[0] as string
  return join(
    first.slice(0, first.length - basename(first).length),
    `${basename(first, '.json')}-advice-trade-off.svg`,
  )
}

/** Where the figures of a block come from: the files, the command and the environment of each run. */
export function source({ runs, files, toRoot }: BlockContext): string {
  const link = (path: string) => join(toRoot, path)
  // The HTML report is not committed (it inlines every chart again); `authlab-bench report` rebuilds it.
  const named = files.map(
    (file) => `[\`${basename(file)}\`](${link(file)}) ([Markdown](${link(file.replace(/\.json$/, '.md'))}))`,
  )
  const latest = runs.at(-1) as ResultsFile
  const env = latest.environment
  const commits = markdownText([...new Set(runs.map((r) => r.environment.commit.slice(0, 7)))].join(', '))
  const dirty = runs.some((r) => r.environment.dirty) ? ' (with uncommitted changes)' : ''
  const when = markdownText(runs.map((r) => r.environment.date.slice(0, 16).replace('T', ' ')).join(', '))
  const loads = runs.map((r) => `${r.environment.loadAverage[0]}→${r.run.loadAverageAtEnd[0]}`).join(', ')
  const each = runs.length === 1 ? '' : ` (each run, start→end)`
  return [
    `${runs.length === 1 ? 'From' : `The median of ${runs.length} consecutive runs,`} ${named.join(', ')}: ${markdownCode(latest.run.command.join(' '))}, ${markdownText(env.mode)} mode,`,
    `commit ${commits}${dirty}, ${when} UTC; ${markdownText(env.cpu)}, ${env.cores} cores,`,
    `${markdownText(`${env.os} ${env.arch}, ${env.runtime}`)}, load average ${loads}${each}, ${markdownText(env.threadpool)}.`,
  ].join('\n')
}
