import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { isAuthlabError } from '@authlab/core'
import { installedVersion } from './discover/discovery.js'
import { FULL, QUICK } from './measure/budget.js'
import { stderrProgress } from './measure/progress.js'
import { formatNumber } from './report/format.js'
import { useColor } from './report/terminal.js'
import { compareResults } from './results/compare.js'
import { readResults } from './results/results.js'
import { ratioSpread } from './results/spread.js'
import { runBench, selectSuites } from './run.js'
import { SUITES } from './suites/index.js'

/** The benchmarks workspace directory (this file lives in src/ or dist/). */
const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..')

export const EXIT = { ok: 0, regression: 1, usage: 2 } as const

export interface Io {
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  /** Workspace root to discover packages in (default: the repository containing this app). */
  readonly root?: string
}

const USAGE = `Usage:
  authlab-bench [--suite ${SUITES.map((s) => s.name).join(',')}] [--filter <substring>] [--full]
                [--out <dir>] [--max-rme <percent>]
  authlab-bench compare <before.json> <after.json> [--threshold <percent>] [--absolute]
  authlab-bench spread <run1.json> <run2.json> [...]   (run-to-run min–max of every ratio)

Suites run one after another; the default is all of them in quick mode (about 3 minutes).
--filter keeps candidates whose package name or label contains the substring (baselines and the ceiling always run).
compare exits 1 when a figure is significantly worse (95 % CIs do not overlap) by more than the threshold
(default 5 %). It compares ratios to each run's own baseline; --absolute compares raw values (same quiet machine only).
`

class UsageError extends Error {}

function percentOption(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isFinite(n) || n < 0)
    throw new UsageError(`${name} must be a non-negative number, got "${value}"`)
  return n
}

/** The measuring tools as this package resolves them (the root node_modules may hold other versions). */
function toolVersions(): Record<string, string> {
  return Object.fromEntries(
    ['tinybench', 'autocannon'].map((tool) => [tool, installedVersion(PACKAGE_DIR, tool)]),
  )
}

async function compareCommand(
  positionals: string[],
  threshold: string | undefined,
  absolute: boolean,
  io: Io,
): Promise<number> {
  const [beforeFile, afterFile, ...extra] = positionals
  if (!beforeFile || !afterFile || extra.length > 0)
    throw new UsageError('compare takes exactly two results files')
  const { changes, onlyBefore, onlyAfter } = compareResults(
    readResults(beforeFile),
    readResults(afterFile),
    percentOption(threshold, '--threshold', 5),
    absolute,
  )
  for (const c of changes) {
    const verdict = c.regression
      ? 'REGRESSION'
      : c.significant
        ? c.worse
          ? 'worse'
          : 'better'
        : 'no significant change'
    const sign = c.deltaPct >= 0 ? '+' : ''
    io.stdout(
      `${c.key}: ${formatNumber(c.before)} → ${formatNumber(c.after)} ${c.unit} (${sign}${c.deltaPct.toFixed(1)}%) ${verdict}\n`,
    )
  }
  for (const key of onlyBefore) io.stdout(`${key}: only in ${beforeFile}\n`)
  for (const key of onlyAfter) io.stdout(`${key}: only in ${afterFile}\n`)
  const regressions = changes.filter((c) => c.regression).length
  io.stdout(`${changes.length} compared, ${regressions} significant regression(s)\n`)
  return regressions > 0 ? EXIT.regression : EXIT.ok
}

function spreadCommand(files: string[], io: Io): number {
  if (files.length < 2) throw new UsageError('spread takes two or more results files')
  for (const s of ratioSpread(files.map(readResults))) {
    const values = s.values.map((v) => (v === undefined ? '–' : v.toFixed(2))).join(' / ')
    io.stdout(`${s.key}: ${values} (min–max ${s.min.toFixed(2)}–${s.max.toFixed(2)} × vs ${s.baseline})\n`)
  }
  return EXIT.ok
}

/** The CLI without process globals, so tests can call it: returns the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        suite: { type: 'string' },
        filter: { type: 'string' },
        full: { type: 'boolean', default: false },
        out: { type: 'string' },
        'max-rme': { type: 'string' },
        threshold: { type: 'string' },
        absolute: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    })
    if (values.help) {
      io.stdout(USAGE)
      return EXIT.ok
    }
    if (positionals[0] === 'compare')
      return await compareCommand(positionals.slice(1), values.threshold, values.absolute, io)
    if (positionals[0] === 'spread') return spreadCommand(positionals.slice(1), io)
    if (positionals.length > 0) throw new UsageError(`unknown command "${positionals[0]}"`)
    const mode = values.full ? 'full' : 'quick'
    const suites = selectSuites(
      SUITES,
      values.suite?.split(',').map((s) => s.trim()),
    )
    const { files } = await runBench({
      root: io.root ?? resolve(PACKAGE_DIR, '..'),
      suites,
      filter: values.filter,
      mode,
      budget: mode === 'full' ? FULL : QUICK,
      maxRme: percentOption(values['max-rme'], '--max-rme', mode === 'full' ? 5 : 10),
      outDir: resolve(values.out ?? resolve(PACKAGE_DIR, 'results')),
      toolVersions: toolVersions(),
      stdout: io.stdout,
      progress: (suite) => stderrProgress(suite, io.stderr),
      color: useColor(),
    })
    for (const file of files) io.stderr(`wrote ${file}\n`)
    return EXIT.ok
  } catch (error) {
    // Usage mistakes and bad input (unknown suite, empty filter, foreign results file) exit 2 with the reason.
    if (
      error instanceof UsageError ||
      isAuthlabError(error) ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      io.stderr(`authlab-bench: ${(error as Error).message}\n\n${USAGE}`)
      return EXIT.usage
    }
    throw error
  }
}
