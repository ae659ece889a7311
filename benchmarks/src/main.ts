import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { main as calibrateMain } from '@authlab/calibrate/cli'
import { isAuthlabError } from '@authlab/core'
import { parseDurationMs } from '@authlab/stretch-helper'
import { installedVersion } from '@authlab/workspace'
import { writeRegularFile } from './files/regular.js'
import { FULL, QUICK } from './measure/budget.js'
import { stderrProgress } from './measure/progress.js'
import { writeTradeOffCharts } from './report/advice-chart-files.js'
import { auditText } from './report/audit.js'
import { renderComparison } from './report/compare.js'
import { terminalLines, terminalText } from './report/escape.js'
import { figureBlocks, regenerate } from './report/figures.js'
import { writeReports } from './report/files.js'
import { findRuns, renderIndexHtml } from './report/html-index.js'
import { COMPACT_WIDTH, useColor, wrap } from './report/terminal.js'
import { VERDICT_RULE } from './report/words.js'
import { COMPARE_DEFAULTS, compareResults, compareRule } from './results/compare.js'
import {
  MAX_RESULTS_BYTES,
  MAX_ROUNDS_READ,
  readResults,
  resultsPathInside,
  UnreadableResultsError,
} from './results/results.js'
import { ratioSpread, verdictAudit } from './results/spread.js'
import { runBench, selectSuites } from './run.js'
import { parseRuntimes } from './runtimes/across.js'
import { PROCESS_ROUND_SUITES, SUITES } from './suites/index.js'
import type { Budget, Suite } from './types.js'

/** The benchmarks workspace directory (this file lives in src/ or dist/). */
const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** The CLI's exit codes; the help text lists them. */
export const EXIT = { ok: 0, regression: 1, usage: 2, unreadable: 3, internal: 4 } as const

export interface Io {
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  /** Workspace root to discover packages in (default: the repository containing this app). */
  readonly root?: string
}

const USAGE = `Usage:
  authlab-bench [--suite ${SUITES.map((s) => s.name).join(',')}] [--filter <substring>]
                [--candidate ./my-generator.mjs ...] [--quick | --full] [--out <dir>] [--seed <n>] [--wide] [--explain]
                [--rtt <duration>] [--runtime node,node24,node22,bun,deno,chromium,firefox]
  authlab-bench compare <before.json> <after.json> [--threshold <percent>] [--alpha <p>] [--absolute]
                [--format text|md|json]
  authlab-bench compare <before1.json> <before2.json> vs <after1.json> <after2.json>   (rounds pooled per side)
  authlab-bench spread <run1.json> <run2.json> [...]   (run-to-run min–max of every ratio)
  authlab-bench calibrate --target 250ms [--concurrency 8] [--max-memory 64MiB] [--filter argon2] [--json <file>]
                (hasher parameters for this machine: @authlab/calibrate's command; --help for its options)
  authlab-bench figures [--from <results.json> ...] [--check]   (README figures, regenerated from the
                results files their markers name; --from (repeatable: consecutive runs, oldest first) names
                others; --check only says whether they agree)
  authlab-bench report [<dir> | <run.json> ...]   (the index page of a results directory, default
                benchmarks/results; or a run's Markdown, SVG and HTML reports rebuilt beside its JSON)

Suites run one after another (the ids suite's rounds half before the others, half after); the default is
${SUITES.filter((s) => !s.onRequestOnly)
  .map((s) => s.name)
  .join(',')} in quick mode (under 4 minutes on 2 cores).
Every micro suite runs interleaved rounds, and more rounds for comparisons still undecided. ${VERDICT_RULE}
--filter      keeps candidates whose package name or label contains the substring (baselines and ceilings always run).
--runtime     runs the ids, hash and stretch suites inside each listed runtime (default: this Node only) and merges
              them into one results file: every row names its runtime, ratios divide by that runtime's own
              baseline, and a "runtimes" table sets the same candidate side by side. A runtime that cannot
              start is listed as skipped with its reason.
--candidate   benchmarks a module exporting createIdGenerator and/or createHasher (repeatable). The file is RUN AS
              CODE, with your permissions: the bench imports it to find its exports, the ids suite calls its
              generator only in child processes (one per round, killed past a time limit; a round that throws,
              returns a wrong ID, exits or hangs marks the row failed and the run goes on), and the hashing
              suites call createHasher in the bench process itself. Only pass files you trust.
--rtt         stretch suite: a simulated network round trip added to every call of row [2]'s remote scrypt
              helper, e.g. 30ms (whole ms, at most 5s); the row is labelled "simulated RTT 30 ms". Default: none
              (loopback, almost no network cost).
--explain     prints the verdict rule and the method of each suite named (default: the default ones); runs nothing.
--wide        prints every column, every table, the notes and the A/A control rows (default: candidate, figure,
              first ratio, verdict; the control's verdict in its table's title).
--out         where results go; default benchmarks/runs/ (git-ignored). Published runs: --out benchmarks/results.
              Relative paths start where the command was typed; from the benchmarks workspace itself (as
              npm run bench runs it), at the repository root.
${wrap(
  `${compareRule(COMPARE_DEFAULTS)} (defaults --threshold ${COMPARE_DEFAULTS.thresholdPct}, --alpha ${COMPARE_DEFAULTS.alpha}); exit 1 on any regression.`,
  110,
  ' '.repeat(14),
  'compare'.padEnd(14),
).join('\n')}
              --absolute compares raw per-round values instead of ratios (same quiet machine only).
files         results files are read only as regular files (never a symbolic link, FIFO or device), of at most
              ${MAX_RESULTS_BYTES / 2 ** 20} MiB and ${MAX_ROUNDS_READ.toLocaleString('en-US')} rounds each; report writes only regular files, never through a link.
exit codes    ${EXIT.ok} done (compare: no regression) · ${EXIT.regression} compare found a regression, or figures --check a stale README
              · ${EXIT.usage} a usage error or bad input · ${EXIT.unreadable} a results file that cannot be read (missing, not a
              regular file, too large, not JSON, not a results file, too many rounds) · ${EXIT.internal} an internal error.
`

class UsageError extends Error {}

function percentOption(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isFinite(n) || n < 0)
    throw new UsageError(`${name} must be a non-negative number, got "${value}"`)
  return n
}

/**
 * Where relative `--out` and `--candidate` paths start. npm sets INIT_CWD to the directory it was started
 * in; a start inside this workspace (its own `bench` script, or `turbo run bench`, which starts npm again
 * there) is taken as the repository root, where `benchmarks/results` is meant.
 */
export function startDirectory(initCwd: string): string {
  return resolve(initCwd) === PACKAGE_DIR ? resolve(PACKAGE_DIR, '..') : initCwd
}

/** A given seed replays a run's round orders; by default each run draws its own. */
function seedOption(value: string | undefined): number {
  if (value === undefined) return Math.floor(Math.random() * 2 ** 31)
  const n = Number(value)
  if (!Number.isSafeInteger(n) || n < 0)
    throw new UsageError(`--seed must be a non-negative integer, got "${value}"`)
  return n
}

/**
 * The remote scrypt client gives one call 10 s, retries included: a round trip above 5 s would turn
 * the row into timeouts. Whole ms, because the helper takes its delay as an integer setting.
 */
const MAX_RTT_MS = 5000

/** `--rtt 30ms`: the simulated round trip of the stretch suite's row [2], in ms. */
export function rttOption(value: string | undefined, suites: readonly Suite[]): number | undefined {
  if (value === undefined) return undefined
  const ms = parseDurationMs(value, '--rtt')
  if (!Number.isInteger(ms) || ms > MAX_RTT_MS)
    throw new UsageError(`--rtt must be a whole number of ms up to ${MAX_RTT_MS / 1000}s, got "${value}"`)
  if (!suites.some((suite) => suite.name === 'stretch'))
    throw new UsageError('--rtt applies to the stretch suite only (add it to --suite)')
  return ms
}

/** The verdict rule and each suite's method in full, as a run at this budget would measure. */
function explain(suites: readonly Suite[], budget: Budget, width = COMPACT_WIDTH): string {
  const paragraphs = [
    VERDICT_RULE,
    ...suites.map((suite) => `${suite.name}: ${suite.description} Method: ${suite.method(budget)}`),
  ]
  return `${paragraphs.map((p) => wrap(p, width, '').join('\n')).join('\n\n')}\n`
}

/** The measuring tools as this package resolves them (the root node_modules may hold other versions). */
function toolVersions(): Record<string, string> {
  return Object.fromEntries(['autocannon'].map((tool) => [tool, installedVersion(PACKAGE_DIR, tool)]))
}

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

function compareCommand(
  positionals: string[],
  values: { threshold?: string; alpha?: string; absolute: boolean; format?: string },
  startDir: string,
  io: Io,
): number {
  const [beforeFiles, afterFiles] = compareSides(positionals)
  const format = values.format ?? 'text'
  if (format !== 'text' && format !== 'md' && format !== 'json')
    throw new UsageError(`--format must be text, md or json, got "${format}"`)
  const alpha = percentOption(values.alpha, '--alpha', COMPARE_DEFAULTS.alpha)
  if (!(alpha > 0 && alpha < 1))
    throw new UsageError(`--alpha must lie between 0 and 1, got "${values.alpha}"`)
  const read = (file: string) => readResults(resolve(startDir, file))
  const [before, after] = [beforeFiles.map(read), afterFiles.map(read)]
  const comparison = compareResults(before, after, {
    thresholdPct: percentOption(values.threshold, '--threshold', COMPARE_DEFAULTS.thresholdPct),
    alpha,
    absolute: values.absolute,
    processRounds: PROCESS_ROUND_SUITES,
  })
  const rendered = renderComparison(comparison, before, after, format)
  // Text goes to a terminal: labels from the files must not carry escape sequences there.
  io.stdout(format === 'text' ? terminalLines(rendered) : rendered)
  return comparison.changes.some((c) => c.decision === 'regression') ? EXIT.regression : EXIT.ok
}

function spreadCommand(files: string[], startDir: string, io: Io): number {
  if (files.length < 2) throw new UsageError('spread takes two or more results files')
  const runs = files.map((file) => readResults(resolve(startDir, file)))
  for (const s of ratioSpread(runs)) {
    // Three significant digits: a ratio of 0.0418 must not print as 0.04.
    const fmt = (v: number) => v.toPrecision(3)
    const values = s.values.map((v) => (v === undefined ? '–' : fmt(v))).join(' / ')
    io.stdout(
      `${terminalText(s.key)}: ${values} (min–max ${fmt(s.min)}–${fmt(s.max)}, ±${s.maxDeviationPct.toFixed(1)} % of the median ${fmt(s.median)} × vs ${terminalText(s.baseline)})\n`,
    )
  }
  io.stdout(terminalLines(auditText(verdictAudit(runs))))
  return EXIT.ok
}

/** A terminal narrower than 100 columns gets lines of its own width; anything else (a pipe, a file) 100. */
function terminalWidth(stream: { isTTY?: boolean; columns?: number }): number {
  return stream.isTTY && stream.columns ? Math.min(COMPACT_WIDTH, stream.columns) : COMPACT_WIDTH
}

/** The files a run wrote, the charts counted rather than listed: one line each fits a terminal. */
function wroteLines(files: readonly string[]): string {
  const charts = files.filter((f) => f.endsWith('.svg'))
  const others = files.filter((f) => !f.endsWith('.svg')).map((f) => `wrote ${f}\n`)
  const dir = charts[0] ? dirname(charts[0]) : ''
  return `${others.join('')}${charts.length ? `wrote ${charts.length} SVG charts beside them in ${dir}\n` : ''}`
}

/**
 * `report`: a directory gets its index page (every run, and compare's verdicts for every pair); a
 * results file gets its reports rebuilt beside it, e.g. after the report code changed.
 */
async function reportCommand(targets: readonly string[], startDir: string, io: Io): Promise<number> {
  const paths =
    targets.length > 0 ? targets.map((t) => resolve(startDir, t)) : [resolve(PACKAGE_DIR, 'results')]
  for (const path of paths) {
    if (path.endsWith('.json')) {
      const files = await writeReports(readResults(path), dirname(path), basename(path, '.json'))
      io.stderr(wroteLines(files))
      continue
    }
    if (!existsSync(path) || !statSync(path).isDirectory())
      throw new UsageError(`report takes a results directory or results files, got "${path}"`)
    const file = join(path, 'index.html')
    writeRegularFile(file, renderIndexHtml(path, findRuns(path), INDEX_COMPARE))
    io.stderr(`wrote ${file}\n`)
  }
  return EXIT.ok
}

/** The READMEs that may hold figures blocks: the repository's, the bench's and every workspace package's. */
function readmes(root: string): string[] {
  const found = [join(root, 'README.md'), join(root, 'benchmarks', 'README.md')]
  for (const dir of ['packages', 'apps', 'tools']) {
    if (!existsSync(join(root, dir))) continue
    for (const name of readdirSync(join(root, dir)).sort()) {
      const file = join(root, dir, name, 'README.md')
      if (existsSync(file)) found.push(file)
    }
  }
  return found.filter((file) => existsSync(file) && figureBlocks(readFileSync(file, 'utf8')).length > 0)
}

/**
 * `figures`: every README figures block regenerated from the results files it names (`--from` names
 * newer ones). `--check` writes nothing and exits 1 when a README disagrees with its files.
 */
function figuresCommand(
  root: string,
  startDir: string,
  from: readonly string[] | undefined,
  check: boolean,
  io: Io,
): number {
  const named = from?.map((file) => relative(root, resolve(startDir, file)))
  for (const file of named ?? []) resultsPathInside(root, file)
  const missing = named?.find((file) => !existsSync(join(root, file)))
  if (missing !== undefined) throw new UsageError(`--from: no such results file "${missing}"`)
  let stale = 0
  for (const file of readmes(root)) {
    const before = readFileSync(file, 'utf8')
    const after = regenerate(before, file, root, (f) => readResults(resultsPathInside(root, f)), named)
    if (after === before) continue
    stale++
    if (check) io.stderr(`${relative(root, file)} disagrees with its results file: run npm run figures\n`)
    else {
      writeFileSync(file, after)
      io.stderr(`wrote ${relative(root, file)}\n`)
    }
  }
  return check && stale > 0 ? EXIT.regression : EXIT.ok
}

/** The index compares with compare's defaults, so its verdicts are the ones CI would print. */
const INDEX_COMPARE = {
  ...COMPARE_DEFAULTS,
  absolute: false,
  processRounds: PROCESS_ROUND_SUITES,
} as const

/** The CLI without process globals, so tests can call it: returns the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  // calibrate has options of its own, so it is handed its arguments before this parser sees them.
  if (argv[0] === 'calibrate') return calibrateMain(argv.slice(1), io)
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        suite: { type: 'string' },
        runtime: { type: 'string' },
        filter: { type: 'string' },
        full: { type: 'boolean', default: false },
        quick: { type: 'boolean', default: false },
        out: { type: 'string' },
        candidate: { type: 'string', multiple: true },
        seed: { type: 'string' },
        rtt: { type: 'string' },
        threshold: { type: 'string' },
        alpha: { type: 'string' },
        format: { type: 'string' },
        absolute: { type: 'boolean', default: false },
        wide: { type: 'boolean', default: false },
        explain: { type: 'boolean', default: false },
        from: { type: 'string', multiple: true },
        check: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    })
    if (values.help) {
      io.stdout(USAGE)
      return EXIT.ok
    }
    // Every relative path starts where the command was typed (npx may run it from another directory).
    const startDir = startDirectory(process.env.INIT_CWD ?? process.cwd())
    if (positionals[0] === 'compare') return compareCommand(positionals.slice(1), values, startDir, io)
    if (positionals[0] === 'spread') return spreadCommand(positionals.slice(1), startDir, io)
    if (positionals[0] === 'report') return await reportCommand(positionals.slice(1), startDir, io)
    if (positionals[0] === 'figures') {
      const root = io.root ?? resolve(PACKAGE_DIR, '..')
      const code = figuresCommand(root, startDir, values.from, values.check, io)
      const read = (f: string) => readResults(resultsPathInside(root, f))
      const charts = await writeTradeOffCharts(root, read, values.check, (l) => io.stderr(`${l}\n`))
      return values.check && charts > 0 ? EXIT.regression : code
    }
    if (positionals.length > 0) throw new UsageError(`unknown command "${positionals[0]}"`)
    if (values.quick && values.full)
      throw new UsageError('--quick and --full: choose one (quick is the default)')
    const mode = values.full ? 'full' : 'quick'
    const suites = selectSuites(
      SUITES,
      values.suite?.split(',').map((s) => s.trim()),
    )
    if (values.explain) {
      io.stdout(explain(suites, mode === 'full' ? FULL : QUICK, terminalWidth(process.stdout)))
      return EXIT.ok
    }
    const { files } = await runBench({
      root: io.root ?? resolve(PACKAGE_DIR, '..'),
      suites,
      runtimes: parseRuntimes(values.runtime),
      filter: values.filter,
      candidateFiles: (values.candidate ?? []).map((file) => resolve(startDir, file)),
      mode,
      budget: mode === 'full' ? FULL : QUICK,
      outDir: values.out === undefined ? resolve(PACKAGE_DIR, 'runs') : resolve(startDir, values.out),
      command: ['authlab-bench', ...argv],
      seed: seedOption(values.seed),
      simulatedRttMs: rttOption(values.rtt, suites),
      toolVersions: toolVersions(),
      stdout: io.stdout,
      progress: (suite) => stderrProgress(suite, io.stderr, { width: terminalWidth(process.stderr) }),
      color: useColor(),
      wide: values.wide,
      width: terminalWidth(process.stdout),
    })
    io.stderr(wroteLines(files))
    return EXIT.ok
  } catch (error) {
    // A results file that cannot be read exits 3 with the reason: never 1, which means a regression.
    if (error instanceof UnreadableResultsError) {
      io.stderr(`authlab-bench: ${terminalLines(error.message)}\n`)
      return EXIT.unreadable
    }
    // Usage mistakes and bad input (unknown suite, empty filter, foreign results file) exit 2 with the reason.
    if (
      error instanceof UsageError ||
      isAuthlabError(error) ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      io.stderr(`authlab-bench: ${terminalLines((error as Error).message)}\n\n${USAGE}`)
      return EXIT.usage
    }
    throw error
  }
}
