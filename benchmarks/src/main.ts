import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { main as calibrateMain } from '@authlab/calibrate/cli'
import { isAuthlabError } from '@authlab/core'
import { bench, PACKAGE_DIR } from './commands/bench.js'
import { type Command, EXIT, type Io, UsageError, type Values } from './commands/command.js'
import { RESULTS_COMMANDS } from './commands/results.js'
import type { AnySuite } from './harness/suite.js'
import { loadSuites } from './harness/suites.js'
import { MAX_RESULTS_BYTES, MAX_ROUNDS_READ, UnreadableResultsError } from './model/results.js'
import { terminalLines } from './report/escape.js'
import { wrap } from './report/terminal.js'
import { VERDICT_RULE } from './report/words.js'
import { COMPARE_DEFAULTS, compareRule } from './stats/compare.js'

export { rttOption } from './commands/bench.js'
export { EXIT, type Io } from './commands/command.js'

/** Every command by the name typed after `authlab-bench`; the bench itself has none. */
const COMMANDS: Readonly<Record<string, Command>> = { '': bench, ...RESULTS_COMMANDS }

const CALIBRATE = `calibrate --target 250ms [--concurrency 8] [--max-memory 64MiB] [--filter argon2] [--json <file>]
                (hasher parameters for this machine: @authlab/calibrate's command; --help for its options)`

const OPTIONS = `--filter      keeps candidates whose package name or label contains the substring (baselines and ceilings always run).
--runtime     runs the portable suites inside each listed runtime (default: this Node only) and merges them into
              one results file: every row names its runtime, ratios divide by that runtime's own baseline, and a
              "runtimes" table sets the same candidate side by side. A runtime that cannot start is listed as
              skipped with its reason.
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
              npm run bench runs it), at the repository root.`

/** `--help`, from the command table and the suites found. */
function usage(suites: readonly AnySuite[]): string {
  const synopses = [...Object.values(COMMANDS).map((c) => c.usage(suites)), CALIBRATE]
  const compare = `${compareRule(COMPARE_DEFAULTS)} (defaults --threshold ${COMPARE_DEFAULTS.thresholdPct}, --alpha ${COMPARE_DEFAULTS.alpha}); exit 1 on any regression.`
  return `Usage:
${synopses.map((s) => `  authlab-bench ${s}`).join('\n')}

Suites run one after another (the ids suite's rounds half before the others, half after); the default is
${suites
  .filter((s) => !s.onRequestOnly)
  .map((s) => s.name)
  .join(',')} in quick mode (under 4 minutes on 2 cores).
Every micro suite runs interleaved rounds, and more rounds for comparisons still undecided. ${VERDICT_RULE}
${OPTIONS}
${wrap(compare, 110, ' '.repeat(14), 'compare'.padEnd(14)).join('\n')}
              --absolute compares raw per-round values instead of ratios (same quiet machine only).
files         results files are read only as regular files (never a symbolic link, FIFO or device), of at most
              ${MAX_RESULTS_BYTES / 2 ** 20} MiB and ${MAX_ROUNDS_READ.toLocaleString('en-US')} rounds each; report writes only regular files, never through a link.
exit codes    ${EXIT.ok} done (compare: no regression) · ${EXIT.regression} compare found a regression, or figures --check a stale README
              · ${EXIT.usage} a usage error or bad input · ${EXIT.unreadable} a results file that cannot be read (missing, not a
              regular file, too large, not JSON, not a results file, too many rounds) · ${EXIT.internal} an internal error.
`
}

/**
 * Where relative `--out` and `--candidate` paths start. npm sets INIT_CWD to the directory it was started
 * in; a start inside this workspace (its own `bench` script, or `turbo run bench`, which starts npm again
 * there) is taken as the repository root, where `benchmarks/results` is meant.
 */
export function startDirectory(initCwd: string): string {
  return resolve(initCwd) === PACKAGE_DIR ? resolve(PACKAGE_DIR, '..') : initCwd
}

const parse = (argv: readonly string[]) =>
  parseArgs({
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

/** The CLI without process globals, so tests can call it: returns the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  // calibrate has options of its own, so it is handed its arguments before this parser sees them.
  if (argv[0] === 'calibrate') return calibrateMain(argv.slice(1), io)
  const root = io.root ?? resolve(PACKAGE_DIR, '..')
  let suites: readonly AnySuite[] = []
  try {
    suites = await loadSuites(root, io.suiteDirs)
    const { values, positionals } = parse(argv)
    if (values.help) {
      io.stdout(usage(suites))
      return EXIT.ok
    }
    const [name = '', ...args] = positionals
    const command = COMMANDS[name] ?? bench
    // Every relative path starts where the command was typed (npx may run it from another directory).
    const startDir = startDirectory(process.env.INIT_CWD ?? process.cwd())
    return await command.run({
      values: values as Values,
      args: COMMANDS[name] ? args : positionals,
      argv,
      io,
      root,
      startDir,
      suites,
    })
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
      io.stderr(`authlab-bench: ${terminalLines((error as Error).message)}\n\n${usage(suites)}`)
      return EXIT.usage
    }
    throw error
  }
}
