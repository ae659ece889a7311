import { existsSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import type { RuntimeClaim } from '../discover/runtime-claims.js'
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
  readonly claims: ReadonlyMap<string, RuntimeClaim>
}

const BY_KIND: Record<BlockKind, (ctx: BlockContext) => string> = {
  findings: findingsFigures,
  defaults: defaultsFigures,
  advice: adviceFigures,
  costs: costsFigures,
  runtimes: runtimesFigures,
}

/** The runtime's name and major version (`node v26`): a Node 24 run never stands in for a Node 26 one. */
const major = (run: ResultsFile) => run.environment.runtime.replace(/^(\S+ v?\d+).*$/, '$1')
const acrossRuntimes = (run: ResultsFile) => (run.environment.runtimes ?? []).length > 0

/**
 * Whether `newer` replaces `older` in a block: both cross-runtime runs or both not, on the same runtime
 * major version, sharing a suite (default-suite runs replace default-suite runs, an http run an http
 * run, a cross-runtime run a cross-runtime run; a Node 24 lag run stays when Node 26 runs arrive).
 */
function replacesRun(newer: ResultsFile, older: ResultsFile): boolean {
  if (acrossRuntimes(newer) !== acrossRuntimes(older) || major(newer) !== major(older)) return false
  const suites = new Set(newer.run.suites)
  return older.run.suites.some((s) => suites.has(s))
}

/**
 * A block's files once `from` moves it to newer runs: each named file that a `from` file replaces gives
 * way to every `from` file of its kind (consecutive runs, in `from`'s order), the others stay; a block
 * whose named files are gone takes `from` whole. A block may so cite several kinds of run at once
 * (three default runs, an http run, a cross-runtime run), each moved by its own kind.
 */
function filesAfter(named: readonly string[], options: Regeneration): readonly string[] {
  const { from, root, read } = options
  if (from === undefined || from.length === 0) return named
  if (!named.every((file) => existsSync(join(root, file)))) return from
  const newer = from.map((file) => ({ file, run: read(file) }))
  const out: string[] = []
  for (const file of named) {
    const older = read(file)
    const by = newer.filter((n) => replacesRun(n.run, older)).map((n) => n.file)
    for (const f of by.length > 0 ? by : [file]) if (!out.includes(f)) out.push(f)
  }
  return out
}

/** The README with every figures block regenerated from the results files it names. */
export function regenerate(readme: string, options: Regeneration): string {
  const toRoot = relative(dirname(options.readmePath), options.root)
  return readme.replace(BLOCK, (_, list: string, candidate: string | undefined, kind?: BlockKind) => {
    const files = filesAfter(list.split(','), options)
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
