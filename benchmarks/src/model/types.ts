import type { Environment } from '@authlab/workspace'

/** What the interval of a ratio decides (src/stats/verdict.ts); src/report/words.ts says it. */
export type Verdict = 'better' | 'worse' | 'same' | 'undecided'

/**
 * A ratio to a baseline measured in the same run, oriented so > 1 is better: the median of the
 * per-round ratios (each round's candidate ÷ that round's baseline) with a 95 % interval across rounds.
 */
export interface Ratio {
  /** The baseline's id (a candidate id, or `K=1`, `limit`): what every lookup selects a ratio by. */
  readonly against: string
  /** The baseline's display label: for people only. */
  readonly baseline: string
  readonly value: number
  readonly low: number
  readonly high: number
  /** The per-round ratios in round order: what `compare` ranks. */
  readonly rounds: readonly number[]
  readonly verdict: Verdict
  /** The equivalence margin in percent this comparison is judged at, when not MIN_EFFECT_PCT. */
  readonly margin?: number
  /** Decided, but not published: the suite's A/A control read better or worse in this run. */
  readonly withheld?: boolean
}

/**
 * Why a row must not be read as plain fact, or what it is besides a candidate. Decided where the row
 * is made; src/report/words.ts says each one.
 */
export type Flag =
  | { readonly kind: 'baseline' }
  | { readonly kind: 'control' }
  | { readonly kind: 'ceiling' }
  | { readonly kind: 'above-limit'; readonly limit: number; readonly low: number; readonly high: number }
  | { readonly kind: 'failed'; readonly reason: string }
  | { readonly kind: 'no-figure' }
  | { readonly kind: 'marked-rounds'; readonly rounds: number }
  | { readonly kind: 'noisy'; readonly retries: number }
  | { readonly kind: 'same-as-defaults' }
  | { readonly kind: 'shared-rounds' }
  | { readonly kind: 'not-paired' }
  | { readonly kind: 'incompatible'; readonly step: string; readonly reason: string }
  /** A flag of an older results file that says something none of the above does, kept as its text. */
  | { readonly kind: 'other'; readonly text: string }

export type FlagKind = Flag['kind']

/** The flags that say a row's figure is not to be read as fact. */
export const WARNINGS: ReadonlySet<FlagKind> = new Set(['above-limit', 'no-figure', 'noisy'])

export const hasFlag = (row: { readonly flags: readonly Flag[] }, kind: FlagKind) =>
  row.flags.some((f) => f.kind === kind)

export const isWarned = (row: { readonly flags: readonly Flag[] }) =>
  row.flags.some((f) => WARNINGS.has(f.kind))

/** What a row measures besides its suite, candidate and runtime, as data (src/model/keys.ts). */
export interface SuiteKey {
  /** The parameters: `defaults`, an algorithm at parameters (`bcrypt:cost=10`), `K=2`, a framework. */
  readonly setting: string
  /** What was timed: `hash`, `verify`, `generate`, `request`, `login`, `derive`. */
  readonly operation: string
}

/** One measured figure: every reporter renders rows only, so a suite never formats output itself. */
export interface Row {
  readonly suite: string
  /** Section within the suite, for display only: a parameter setting, a K, a table it reproduces. */
  readonly group: string
  /** Stable candidate id. */
  readonly candidate: string
  readonly key: SuiteKey
  readonly label: string
  /** The runtime that measured it (`--runtime` ids: node, node24, node22, bun, deno, chromium, firefox). */
  readonly runtime?: string
  /** The headline figure and its unit, e.g. 1.2e6 "IDs/s" or 74.1 "CPU ms/hash". */
  readonly value: number
  readonly unit: string
  readonly higherIsBetter: boolean
  /** Relative margin of error of `value` in percent (95 % CI half-width), when sampled. */
  readonly rme?: number
  readonly samples?: number
  /** The figure of each clean round, when `value` is their median. */
  readonly rounds?: readonly number[]
  /** Ratios to baselines; the first one is charted. Higher is always better for a ratio. */
  readonly ratios: readonly Ratio[]
  /** Supporting figures in display order, e.g. p50, p99, retained heap. */
  readonly details: Readonly<Record<string, number | string>>
  readonly flags: readonly Flag[]
}

/**
 * The details a cross-runtime row (`--runtime`) carries per call, medians over its rounds: wall ms, and
 * CPU ms of the runtime's process where it can be read (src/runtimes/measure.ts writes them; the
 * advice reads them). Runs made before they existed have neither: their readers say "not measured".
 */
export const PER_CALL = { wallMs: 'wall ms per call', cpuMs: 'CPU ms per call' } as const

/** A round that failed: its candidate keeps the others; the terminal and the reports say which and why. */
export interface Failure {
  readonly candidate: string
  readonly reason: string
}

/** One suite of a run: its method, its rows and what the run found beside them. */
export interface SuiteRecord {
  readonly name: string
  readonly description: string
  /** How the suite measures (its declaration's method). */
  readonly method: string
  /** Every round ran in a fresh process, so `compare` may judge one run against one. */
  readonly processRounds: boolean
  /** What this run found that a reader needs beside the method: a skipped configuration, a pin. */
  readonly notes: readonly string[]
  readonly failures: readonly Failure[]
  readonly rows: readonly Row[]
}

/** How the run was asked for: enough to repeat it. */
export interface RunRecord {
  readonly command: readonly string[]
  readonly suites: readonly string[]
  readonly filter: string | null
  readonly candidateFiles: readonly string[]
  readonly seed: number
  /** The load average when the last suite finished (the environment holds the one at the start). */
  readonly loadAverageAtEnd: readonly number[]
}

/** Version 3: keys, baselines' ids and flags as data; version 2 files are read through src/model/migrate.ts. */
export const RESULTS_FORMAT = 'authlab-bench/3'

/** What `results/<date>-<commit>.json` holds: the environment and every figure of the run. */
export interface ResultsFile {
  readonly format: typeof RESULTS_FORMAT
  readonly environment: Environment
  readonly run: RunRecord
  readonly suites: readonly SuiteRecord[]
  readonly skipped: readonly { readonly name: string; readonly reason: string }[]
}
