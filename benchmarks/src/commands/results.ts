import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { runtimeClaims } from '../discover/runtime-claims.js'
import { writeRegularFile } from '../files/regular.js'
import { viewsOf } from '../harness/run.js'
import { resultsPathInside } from '../model/results.js'
import { writeTradeOffCharts } from '../report/advice-chart-files.js'
import { auditText } from '../report/audit.js'
import { renderComparison } from '../report/compare.js'
import { terminalLines, terminalText } from '../report/escape.js'
import { writeReports } from '../report/files.js'
import { findRuns, renderIndexHtml } from '../report/html-index.js'
import { regenerate } from '../report/readme.js'
import { figureBlocks } from '../report/readme-blocks.js'
import { COMPARE_DEFAULTS, compareResults } from '../stats/compare.js'
import { readResults } from '../stats/decide.js'
import { ratioSpread, verdictAudit } from '../stats/spread.js'
import { PACKAGE_DIR, wroteLines } from './bench.js'
import { type Command, EXIT, type Invocation, percentOption, UsageError } from './command.js'

/** `compare a.json b.json`, or several files per side: `compare a1.json a2.json vs b1.json b2.json`. */
function compareSides(files: readonly string[]): [string[], string[]] {
  const split = files.indexOf('vs')
  if (split === -1) {
    if (files.length !== 2)
      throw new UsageError('compare takes two results files, or several per side separated by "vs"')
    return [[files[0] as string], [files[1] as string]]
  }
  const [before, after] = [files.slice(0, split), files.slice(split + 1)]
  if (before.length === 0 || after.length === 0)
    throw new UsageError('compare needs results files on both sides of "vs"')
  return [before, after]
}

async function compare({ values, args, startDir, io }: Invocation): Promise<number> {
  const [beforeFiles, afterFiles] = compareSides(args)
  const format = values.format ?? 'text'
  if (format !== 'text' && format !== 'md' && format !== 'json')
    throw new UsageError(`--format must be text, md or json, got "${format}"`)
  const alpha = percentOption(values.alpha, '--alpha', COMPARE_DEFAULTS.alpha)
  if (!(alpha > 0 && alpha < 1))
    throw new UsageError(`--alpha must lie between 0 and 1, got "${values.alpha}"`)
  const read = (file: string) => readResults(resolve(startDir, file))
  const [before, after] = [beforeFiles.map(read), afterFiles.map(read)]
  const thresholdPct = percentOption(values.threshold, '--threshold', COMPARE_DEFAULTS.thresholdPct)
  const comparison = compareResults(before, after, { thresholdPct, alpha, absolute: values.absolute })
  const rendered = renderComparison(comparison, before, after, format)
  // Text goes to a terminal: labels from the files must not carry escape sequences there.
  io.stdout(format === 'text' ? terminalLines(rendered) : rendered)
  return comparison.changes.some((c) => c.verdict === 'worse') ? EXIT.regression : EXIT.ok
}

async function spread({ args, startDir, io }: Invocation): Promise<number> {
  if (args.length < 2) throw new UsageError('spread takes two or more results files')
  const runs = args.map((file) => readResults(resolve(startDir, file)))
  // Three significant digits: a ratio of 0.0418 must not print as 0.04.
  const fmt = (v: number) => v.toPrecision(3)
  for (const s of ratioSpread(runs)) {
    const values = s.values.map((v) => (v === undefined ? '–' : fmt(v))).join(' / ')
    io.stdout(
      `${terminalText(s.key)}: ${values} (min–max ${fmt(s.min)}–${fmt(s.max)}, ±${s.maxDeviationPct.toFixed(1)} % of the median ${fmt(s.median)} × vs ${terminalText(s.baseline)})\n`,
    )
  }
  io.stdout(terminalLines(auditText(verdictAudit(runs))))
  return EXIT.ok
}

/**
 * `report`: a directory gets its index page (every run, and compare's verdicts for every pair); a
 * results file gets its reports rebuilt beside it, e.g. after the report code changed.
 */
async function report({ args, startDir, io, root, suites }: Invocation): Promise<number> {
  const paths = args.length > 0 ? args.map((t) => resolve(startDir, t)) : [resolve(PACKAGE_DIR, 'results')]
  const options = { views: viewsOf(suites), claims: runtimeClaims(root) }
  for (const path of paths) {
    if (path.endsWith('.json')) {
      io.stderr(
        wroteLines(await writeReports(readResults(path), dirname(path), basename(path, '.json'), options)),
      )
      continue
    }
    if (!existsSync(path) || !statSync(path).isDirectory())
      throw new UsageError(`report takes a results directory or results files, got "${path}"`)
    const file = join(path, 'index.html')
    // The index compares with compare's defaults, so its verdicts are the ones CI would print.
    writeRegularFile(file, renderIndexHtml(path, findRuns(path), { ...COMPARE_DEFAULTS, absolute: false }))
    io.stderr(`wrote ${file}\n`)
  }
  return EXIT.ok
}

/** The READMEs that may hold figures blocks: the repository's, the bench's and every workspace package's. */
function readmes(root: string): string[] {
  const found = [join(root, 'README.md'), join(root, 'benchmarks', 'README.md')]
  for (const dir of ['packages', 'apps', 'tools'].filter((d) => existsSync(join(root, d))))
    for (const name of readdirSync(join(root, dir)).sort()) found.push(join(root, dir, name, 'README.md'))
  return found.filter((file) => existsSync(file) && figureBlocks(readFileSync(file, 'utf8')).length > 0)
}

/**
 * `figures`: every README figures block regenerated from the results files it names (`--from` names
 * newer ones). `--check` writes nothing and exits 1 when a README disagrees with its files.
 */
async function figures({ values, startDir, io, root, suites }: Invocation): Promise<number> {
  const from = values.from?.map((file) => relative(root, resolve(startDir, file)))
  for (const file of from ?? []) resultsPathInside(root, file)
  const missing = from?.find((file) => !existsSync(join(root, file)))
  if (missing !== undefined) throw new UsageError(`--from: no such results file "${missing}"`)
  const read = (f: string) => readResults(resultsPathInside(root, f))
  const options = {
    root,
    read,
    views: viewsOf(suites),
    claims: runtimeClaims(root),
    ...(from ? { from } : {}),
  }
  let stale = 0
  for (const file of readmes(root)) {
    const before = readFileSync(file, 'utf8')
    const after = regenerate(before, { ...options, readmePath: file })
    if (after === before) continue
    stale++
    if (values.check)
      io.stderr(`${relative(root, file)} disagrees with its results file: run npm run figures\n`)
    else {
      writeFileSync(file, after)
      io.stderr(`wrote ${relative(root, file)}\n`)
    }
  }
  stale += await writeTradeOffCharts(root, read, values.check, (line) => io.stderr(`${line}\n`))
  return values.check && stale > 0 ? EXIT.regression : EXIT.ok
}

export const RESULTS_COMMANDS: Readonly<Record<string, Command>> = {
  compare: {
    usage: () => `compare <before.json> <after.json> [--threshold <percent>] [--alpha <p>] [--absolute]
                [--format text|md|json]
  authlab-bench compare <before1.json> <before2.json> vs <after1.json> <after2.json>   (rounds pooled per side)`,
    run: compare,
  },
  spread: {
    usage: () => 'spread <run1.json> <run2.json> [...]   (run-to-run min–max of every ratio)',
    run: spread,
  },
  figures: {
    usage: () => `figures [--from <results.json> ...] [--check]   (README figures, regenerated from the
                results files their markers name; --from (repeatable: consecutive runs, oldest first) names
                others; --check only says whether they agree)`,
    run: figures,
  },
  report: {
    usage: () => `report [<dir> | <run.json> ...]   (the index page of a results directory, default
                benchmarks/results; or a run's Markdown, SVG and HTML reports rebuilt beside its JSON)`,
    run: report,
  },
}
