import { existsSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import type { ResultsFile } from '../model/types.js'
import type { Views } from '../model/view.js'
import { adviceFigures, costsFigures } from './readme-advice.js'
import { BLOCK, type BlockContext, type BlockKind } from './readme-blocks.js'
import { candidateFigures, defaultsFigures, findingsFigures, summaryFigures } from './readme-runs.js'
import { runtimesFigures } from './readme-runtimes.js'

export interface Regeneration {
  readonly readmePath: string
  readonly root: string
  /** Loads a results file by its path relative to the repository root. */
  readonly read: (file: string) => ResultsFile
  /** Newer runs the blocks move to (`figures --from`), oldest first. */
  readonly from?: readonly string[]
  readonly views: Views
  readonly portable: ReadonlySet<string>
}

const BY_KIND: Record<BlockKind, (ctx: BlockContext) => string> = {
  findings: findingsFigures,
  defaults: defaultsFigures,
  advice: adviceFigures,
  costs: costsFigures,
  runtimes: runtimesFigures,
}

/**
 * Whether `from` replaces a block's files: those whose first named file shares a suite and a runtime
 * major version with `from`'s (a default-suites run replaces the default suites' blocks, an http run the
 * http blocks, and a Node 20 run leaves a Node 24 block alone), or whose named files are gone.
 */
function replaces(named: readonly string[], options: Regeneration): boolean {
  const { from, root, read } = options
  if (from === undefined || from.length === 0) return false
  if (!named.every((file) => existsSync(join(root, file)))) return true
  const [newer, older] = [read(from[0] as string), read(named[0] as string)]
  const major = (run: ResultsFile) => run.environment.runtime.replace(/^(\S+ v?\d+).*$/, '$1')
  if (major(newer) !== major(older)) return false
  const suites = new Set(newer.run.suites)
  return older.run.suites.some((s) => suites.has(s))
}

/** The README with every figures block regenerated from the results files it names. */
export function regenerate(readme: string, options: Regeneration): string {
  const toRoot = relative(dirname(options.readmePath), options.root)
  return readme.replace(BLOCK, (_, list: string, candidate: string | undefined, kind?: BlockKind) => {
    const named = list.split(',')
    const files = replaces(named, options) ? (options.from as readonly string[]) : named
    const ctx: BlockContext = { ...options, runs: files.map(options.read), files, toRoot }
    const body = kind
      ? BY_KIND[kind](ctx)
      : candidate
        ? candidateFigures(ctx, candidate)
        : summaryFigures(ctx)
    const tail = kind ? ` ${kind}` : candidate ? ` candidate ${candidate}` : ''
    return `<!-- figures from ${files.join(',')}${tail} -->\n\n${body}\n\n<!-- /figures -->`
  })
}
