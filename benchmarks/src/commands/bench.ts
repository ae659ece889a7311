import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { installedVersion } from '@authlab/workspace'
import { stderrProgress } from '../harness/progress.js'
import type { AnySuite, Mode } from '../harness/suite.js'
import { selectSuites } from '../harness/suites.js'
import { COMPACT_WIDTH, useColor, wrap } from '../report/terminal.js'
import { VERDICT_RULE } from '../report/words.js'
import { parseRuntimes, portableSuites } from '../runtimes/across.js'
import { type Command, EXIT, type Invocation, UsageError } from './command.js'
import { runBench } from './run-bench.js'

/** The benchmarks workspace directory (this file lives in src/commands or dist/commands). */
export const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

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
export async function rttOption(
  value: string | undefined,
  suites: readonly Pick<AnySuite, 'name'>[],
): Promise<number | undefined> {
  if (value === undefined) return undefined
  // The helper's package (a server) loads only when --rtt is given: its spellings are the helper's.
  const { parseDurationMs } = await import('@authlab/stretch-helper')
  const ms = parseDurationMs(value, '--rtt')
  if (!Number.isInteger(ms) || ms > MAX_RTT_MS)
    throw new UsageError(`--rtt must be a whole number of ms up to ${MAX_RTT_MS / 1000}s, got "${value}"`)
  if (!suites.some((suite) => suite.name === 'stretch'))
    throw new UsageError('--rtt applies to the stretch suite only (add it to --suite)')
  return ms
}

/** A terminal narrower than 100 columns gets lines of its own width; anything else (a pipe, a file) 100. */
export function terminalWidth(stream: { isTTY?: boolean; columns?: number }): number {
  return stream.isTTY && stream.columns ? Math.min(COMPACT_WIDTH, stream.columns) : COMPACT_WIDTH
}

/** The verdict rule and each suite's method in full, as a run at this budget would measure. */
function explain(suites: readonly AnySuite[], mode: Mode, width: number): string {
  const paragraphs = [
    VERDICT_RULE,
    ...suites.map(
      (suite) => `${suite.name}: ${suite.description} Method: ${suite.method(suite.budget[mode])}`,
    ),
  ]
  return `${paragraphs.map((p) => wrap(p, width, '').join('\n')).join('\n\n')}\n`
}

/** The files a run wrote, the charts counted rather than listed: one line each fits a terminal. */
export function wroteLines(files: readonly string[]): string {
  const charts = files.filter((f) => f.endsWith('.svg'))
  const others = files.filter((f) => !f.endsWith('.svg')).map((f) => `wrote ${f}\n`)
  const dir = charts[0] ? dirname(charts[0]) : ''
  return `${others.join('')}${charts.length ? `wrote ${charts.length} SVG charts beside them in ${dir}\n` : ''}`
}

async function run({ values, args, argv, io, root, startDir, suites: all }: Invocation): Promise<number> {
  if (args.length > 0) throw new UsageError(`unknown command "${args[0]}"`)
  if (values.quick && values.full)
    throw new UsageError('--quick and --full: choose one (quick is the default)')
  const mode: Mode = values.full ? 'full' : 'quick'
  const suites = selectSuites(
    all,
    values.suite?.split(',').map((s) => s.trim()),
  )
  if (values.explain) {
    io.stdout(explain(suites, mode, terminalWidth(process.stdout)))
    return EXIT.ok
  }
  const runtimes = parseRuntimes(values.runtime)
  if (runtimes) portableSuites(suites, all)
  const { files } = await runBench({
    root,
    suites,
    all,
    ...(runtimes ? { runtimes } : {}),
    filter: values.filter,
    candidateFiles: (values.candidate ?? []).map((file) => resolve(startDir, file)),
    mode,
    outDir: values.out === undefined ? resolve(PACKAGE_DIR, 'runs') : resolve(startDir, values.out),
    command: ['authlab-bench', ...argv],
    seed: seedOption(values.seed),
    simulatedRttMs: await rttOption(values.rtt, suites),
    // The measuring tools as this package resolves them (the root node_modules may hold other versions).
    toolVersions: Object.fromEntries(
      ['autocannon'].map((tool) => [tool, installedVersion(PACKAGE_DIR, tool)]),
    ),
    stdout: io.stdout,
    progress: (suite) => stderrProgress(suite, io.stderr, { width: terminalWidth(process.stderr) }),
    terminal: { color: useColor(), wide: values.wide, width: terminalWidth(process.stdout) },
  })
  io.stderr(wroteLines(files))
  return EXIT.ok
}

export const bench: Command = {
  usage: (suites) => `[--suite ${suites.map((s) => s.name).join(',')}] [--filter <substring>]
                [--candidate ./my-generator.mjs ...] [--quick | --full] [--out <dir>] [--seed <n>] [--wide] [--explain]
                [--rtt <duration>] [--runtime node,node24,node22,bun,deno,chromium,firefox]`,
  run,
}
