import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'
import type { RunOptions } from '../src/commands/run-bench.js'
import { runtimeClaims } from '../src/discover/runtime-claims.js'
import { viewsOf } from '../src/harness/run.js'
import type { AnySuite, Progress, SuiteContext } from '../src/harness/suite.js'
import { loadSuites } from '../src/harness/suites.js'
import { type Io, main } from '../src/main.js'
import type { Ratio, ResultsFile, Row } from '../src/model/types.js'
import { summarizeRatio } from '../src/stats/verdict.js'

/** The repository root. */
export const ROOT = join(import.meta.dirname, '..', '..')

/** Tiny budgets, by suite: the pipeline runs end to end in seconds; figures are not checked. */
export const TINY = {
  ids: {
    rounds: 1,
    sampling: { warmupMs: 1, sampleMs: 1, samples: 1 },
    heap: { ids: 2_000, repeats: 1, warmup: 100 },
  },
  hash: {
    rounds: 2,
    roundMs: 1,
    callCapMs: Number.POSITIVE_INFINITY,
    allSettings: false,
    settingVerifies: true,
  },
  lag: { rounds: 2, timeMs: 1, minHashes: 2, callCapMs: Number.POSITIVE_INFINITY },
  concurrency: { rounds: 2, capMs: 1_000, roundMs: 1 },
  stretch: { rounds: 2, roundMs: 1 },
}

type Budgets = Record<string, object>

/** `TINY` with the quick run's caps on a call's time, for tests that leave the slowest hashers out. */
export const capped = (callCapMs: number, concurrencyCapMs: number): typeof TINY => ({
  ...TINY,
  hash: { ...TINY.hash, callCapMs },
  lag: { ...TINY.lag, callCapMs },
  concurrency: { ...TINY.concurrency, capMs: concurrencyCapMs },
})

export const silentProgress = (): Progress => ({ plan() {}, step() {}, note() {} })

/** A suite's context at `budget`, quiet, on 2 cores, seed 1. */
export function context<B extends { rounds: number }>(
  budget: B,
  extra: Partial<SuiteContext<B>> = {},
): SuiteContext<B> {
  return { budget, mode: 'quick', progress: silentProgress(), cores: 2, seed: 1, failed: () => {}, ...extra }
}

/** Every suite the bench finds in this repository. */
export const allSuites = () => loadSuites(ROOT)

/** A suite with `budgets`' budget for it in both modes. */
export const tiny = (suite: AnySuite, budgets: Budgets = TINY): AnySuite => {
  const budget = budgets[suite.name] ?? suite.budget.quick
  return { ...suite, budget: { quick: budget, full: budget } }
}

/** The suites of these names, tiny. */
export async function tinySuites(names: readonly string[], budgets: Budgets = TINY): Promise<AnySuite[]> {
  const all = await allSuites()
  return names.map((name) => tiny(all.find((s) => s.name === name) as AnySuite, budgets))
}

/** What every report is rendered with: the suites' views and the packages that claim both browsers. */
export async function reportOptions() {
  return { views: viewsOf(await allSuites()), claims: runtimeClaims(ROOT) }
}

/** runBench's options for a quiet run of `suites` over `root`, written to `outDir`. */
export function benchOptions(
  root: string,
  suites: readonly AnySuite[],
  outDir: string,
  extra: Partial<RunOptions> = {},
): RunOptions {
  return {
    root,
    suites,
    all: suites,
    mode: 'quick',
    outDir,
    command: ['authlab-bench'],
    seed: 1,
    toolVersions: {},
    stdout: () => {},
    progress: silentProgress,
    terminal: { color: false, wide: false },
    ...extra,
  }
}

/** A temporary directory removed when the current test ends. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'authlab-bench-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

export function writeJson(file: string, value: unknown) {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`)
}

/** A package directory with a package.json and optionally a built ESM entry. */
export function addPackage(root: string, dir: string, pkg: Record<string, unknown>, entrySource?: string) {
  const at = join(root, 'packages', dir)
  mkdirSync(join(at, 'dist', 'esm'), { recursive: true })
  writeJson(join(at, 'package.json'), {
    version: '1.2.3',
    type: 'module',
    exports: { '.': { import: { default: './dist/esm/index.js' } } },
    ...pkg,
  })
  if (entrySource !== undefined) writeFileSync(join(at, 'dist', 'esm', 'index.js'), entrySource)
}

/** Every strategy manifest says where it runs; these fixtures claim Node only. */
const NODE_ONLY = {
  runtimes: ['node'],
  notInBrowsers: 'a test fixture',
  notInWorkerd: 'a test fixture',
} as const

/**
 * A throwaway workspace shaped like the repository: a temporary ID strategy package (built), an unbuilt
 * hash package, and a package without `authlab` metadata that discovery must ignore.
 */
export function tempWorkspace(): string {
  const root = tempDir()
  writeJson(join(root, 'package.json'), { name: 'tmp-root', private: true, workspaces: ['packages/*'] })
  addPackage(
    root,
    'id-temporary',
    { name: '@tmp/id-temporary', authlab: { kind: 'id', ...NODE_ONLY } },
    `let n = 0
export function createIdGenerator() {
  const generate = () => 'tmp' + String(n++).padStart(29, '0')
  generate.info = { name: '@tmp/id-temporary', displayName: 'temporary counter', length: 32 }
  return generate
}
`,
  )
  addPackage(root, 'hash-unbuilt', { name: '@tmp/hash-unbuilt', authlab: { kind: 'hash', ...NODE_ONLY } })
  addPackage(root, 'not-a-strategy', { name: '@tmp/not-a-strategy' }, 'export const x = 1\n')
  return root
}

export function row(overrides: Partial<Row> = {}): Row {
  return {
    suite: 'ids',
    group: 'IDs/s',
    key: { setting: 'defaults', operation: 'generate' },
    candidate: 'c',
    label: 'c',
    value: 1,
    unit: 'IDs/s',
    higherIsBetter: true,
    ratios: [],
    details: {},
    flags: [],
    ...overrides,
  }
}

/** A ratio summarised from per-round values the way the suites do it (median, interval, verdict). */
export function ratioOf(
  baseline: string | { readonly label: string; readonly against: string; readonly margin?: number },
  rounds: readonly number[],
): Ratio {
  return summarizeRatio(
    typeof baseline === 'string' ? { against: baseline, label: baseline } : baseline,
    rounds,
  )
}

/** Per-round ratios around `center` with a fixed ±`spread` pattern: synthetic, deterministic rounds. */
export function roundsAround(center: number, spread = 0.02, n = 7): number[] {
  const pattern = [0, 1, -1, 0.5, -0.5, 0.25, -0.25, 0.75, -0.75, 0.1]
  return Array.from({ length: n }, (_, i) => center * (1 + spread * (pattern[i % pattern.length] as number)))
}

const UUID = { label: 'crypto.randomUUID() [ref]', against: 'ref:randomUUID' }

/** The synthetic ids suite's rows: a baseline, a decided candidate, a flagged one and the A/A control. */
function syntheticIdRows(): Row[] {
  return [
    row({
      candidate: 'ref:randomUUID',
      label: UUID.label,
      value: 4_000_000,
      rounds: roundsAround(4_000_000),
      ratios: [ratioOf(UUID, roundsAround(1, 0))],
      details: { 'ns/ID': 250 },
      flags: [{ kind: 'baseline' }],
    }),
    row({
      candidate: '@authlab/id-fast',
      label: 'authlab fast <&>',
      value: 10_000_000,
      rounds: roundsAround(10_000_000),
      ratios: [ratioOf(UUID, roundsAround(2.5))],
      details: { 'ns/ID': 100 },
    }),
    row({
      candidate: '@authlab/id-random-int',
      label: 'randomInt | per char',
      value: 300_000,
      rounds: roundsAround(300_000, 0.02, 3),
      ratios: [ratioOf(UUID, roundsAround(0.075, 0.02, 3))],
      details: { 'ns/ID': 3333.3 },
      flags: [{ kind: 'above-limit', limit: 1, low: 1.1, high: 1.2 }],
    }),
    row({
      candidate: 'ref:randomUUID (A/A)',
      label: `${UUID.label} [A/A control]`,
      value: 4_010_000,
      rounds: roundsAround(4_010_000),
      ratios: [ratioOf(UUID, roundsAround(1.01))],
      details: { 'ns/ID': 249 },
      flags: [{ kind: 'control' }],
    }),
  ]
}

/** A fixed results file (no clock, no machine): the reporters' golden files are rendered from it. */
export function syntheticResults(): ResultsFile {
  return {
    format: 'authlab-bench/3',
    environment: {
      date: '2026-01-02T03:04:05.000Z',
      commit: '0123456789abcdef0123456789abcdef01234567',
      dirty: false,
      cpu: 'Synthetic CPU',
      cores: 2,
      os: 'Linux 6.0',
      arch: 'x64',
      runtime: 'node v20.20.0',
      loadAverage: [0.1, 0.2, 0.3],
      threadpool: 'UV_THREADPOOL_SIZE unset (libuv default 4)',
      mode: 'quick',
      packages: { '@authlab/id-fast': '0.1.0', tinybench: '6.2.5' },
    },
    run: {
      command: ['authlab-bench', '--suite', 'ids'],
      suites: ['ids', 'lag'],
      filter: null,
      candidateFiles: [],
      seed: 1,
      loadAverageAtEnd: [0.2, 0.2, 0.3],
    },
    suites: [
      {
        name: 'ids',
        description: 'Synthetic IDs/s.',
        method: 'Synthetic method.',
        processRounds: true,
        notes: ['Each sample times 1000 IDs.'],
        failures: [],
        rows: syntheticIdRows(),
      },
      {
        name: 'lag',
        description: 'Synthetic event-loop delay.',
        method: '',
        processRounds: false,
        notes: [],
        failures: [],
        rows: [
          row({
            suite: 'lag',
            group: 'delay',
            key: { setting: 'defaults', operation: 'hash' },
            candidate: 'a',
            label: 'threadpool hasher',
            value: 1.5,
            unit: 'ms max delay',
            higherIsBetter: false,
            details: { 'ticks/hash': 60 },
          }),
          row({
            suite: 'lag',
            group: 'delay',
            key: { setting: 'defaults', operation: 'hash' },
            candidate: 'b',
            label: 'main-thread hasher',
            value: 75,
            unit: 'ms max delay',
            higherIsBetter: false,
            details: { 'ticks/hash': 1 },
          }),
        ],
      },
    ],
    skipped: [{ name: '@authlab/hash-unbuilt', reason: 'not built' }],
  }
}

/** The synthetic results with id-fast's per-round ratios replaced: one side of a comparison. */
export function withFastRatios(rounds: readonly number[]): ResultsFile {
  const results = structuredClone(syntheticResults())
  const rows = results.suites[0]?.rows as Row[]
  const fast = rows[1] as Row
  rows[1] = { ...fast, ratios: [ratioOf(UUID, rounds)] }
  return results
}

/** Writes a baseline (id-fast at 2.5× randomUUID over 7 rounds) and `after` to two files for `compare`. */
export function writeResultsPair(after: ResultsFile): [string, string] {
  const dir = tempDir()
  const [a, b] = [join(dir, 'a.json'), join(dir, 'b.json')]
  writeJson(a, syntheticResults())
  writeJson(b, after)
  return [a, b]
}

/** Runs the bench CLI in this process, capturing what it prints. */
export async function cli(argv: string[], root?: string, io: Partial<Io> = {}) {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, {
    stdout: (t) => {
      stdout += t
    },
    stderr: (t) => {
      stderr += t
    },
    ...(root ? { root } : {}),
    ...io,
  })
  return { code, stdout, stderr }
}
