import type { IdGenerator, PasswordHasher } from '@authlab/core'

/** A strategy package found in the workspace by its `"authlab": { "kind" }` declaration. */
export interface StrategyPackage {
  readonly name: string
  readonly version: string
  readonly kind: 'id' | 'hash' | 'stretch'
  /** Absolute directory of the package. */
  readonly dir: string
  /** Runtime dependencies with the versions actually installed (for the results' environment). */
  readonly dependencies: Readonly<Record<string, string>>
}

/** A loaded strategy package: its metadata plus the module's named exports. */
export interface LoadedPackage extends StrategyPackage {
  readonly exports: Readonly<Record<string, unknown>>
}

/** Something an ids suite can measure: a package's generator or a bench-only reference. */
export interface IdCandidate {
  /** Stable key across runs (package name, or `ref:<name>` for references). */
  readonly id: string
  readonly label: string
  readonly create: () => IdGenerator
}

/** Something the hashing suites measure; `create` takes the package's own options. */
export interface HashCandidate {
  readonly id: string
  readonly label: string
  readonly create: (options?: Record<string, unknown>) => PasswordHasher
}

/** A key-stretching package: its exports are interpreted by the stretch suite. */
export interface StretchCandidate {
  readonly id: string
  readonly label: string
  readonly exports: Readonly<Record<string, unknown>>
}

/** Everything the suites may run, after `--filter`; baselines are kept even when filtered out. */
export interface Candidates {
  readonly ids: readonly IdCandidate[]
  readonly hashers: readonly HashCandidate[]
  readonly stretch: readonly StretchCandidate[]
}

/** A figure with its relative 95 % margin of error in percent; absent for a one-shot figure. */
export interface Figure {
  readonly value: number
  readonly rme?: number
}

/** A spread-carrying ratio to a baseline measured in the same run. */
export interface Ratio {
  readonly baseline: string
  readonly value: number
  /** Relative margin of error of the ratio, in percent. */
  readonly rme: number
}

/**
 * One measured figure. Every reporter (terminal, JSON, Markdown, SVG) renders rows only, so a suite
 * never formats output itself.
 */
export interface Row {
  readonly suite: string
  /** Section within the suite: a parameter setting, a K, a table of the article. */
  readonly group: string
  /** Stable candidate key: rows with equal suite, group, candidate and unit are compared across runs. */
  readonly candidate: string
  readonly label: string
  /** The headline figure and its unit, e.g. 1.2e6 "IDs/s" or 74.1 "ms/hash". */
  readonly value: number
  readonly unit: string
  readonly higherIsBetter: boolean
  /** Relative margin of error of `value` in percent (95 % CI half-width), when sampled. */
  readonly rme?: number
  readonly samples?: number
  /** Ratios to baselines; the first one is charted. Higher is always better for a ratio. */
  readonly ratios: readonly Ratio[]
  /** Supporting figures in display order, e.g. p50, p99, retained heap. */
  readonly details: Readonly<Record<string, number | string>>
  /** Why a figure must not be read as fact (noisy, skipped, baseline, ceiling...). */
  readonly flags: readonly string[]
}

export interface Progress {
  /** Declares how many steps the current suite will take, for the time-left estimate. */
  plan(steps: number): void
  /** Announces the step about to run. */
  step(label: string): void
  /** A one-off remark (e.g. a skipped candidate). */
  note(message: string): void
}

export interface Budget {
  /** Time per ID candidate (tinybench `time`), and its warm-up. */
  readonly idTimeMs: number
  readonly idWarmupMs: number
  /** IDs generated for the retained-heap measurement, one in `keepEvery` kept. */
  readonly heapIds: number
  /** Per hash operation: time budget and minimum samples. */
  readonly hashTimeMs: number
  readonly hashMinSamples: number
  /** Cost-equalised settings run: `quick` runs one per algorithm family, `full` all of them. */
  readonly allSettings: boolean
  /** Lag suite: time to hash back to back per hasher (at least `lagMinHashes`). */
  readonly lagTimeMs: number
  readonly lagMinHashes: number
  /** Concurrency: time per K, and the projected time above which a K is skipped (not guessed). */
  readonly concurrencyTimeMs: number
  readonly concurrencyCapMs: number
  readonly stretchTimeMs: number
  readonly stretchMinSamples: number
}

export interface SuiteContext {
  readonly budget: Budget
  readonly progress: Progress
  /** Rows whose rme exceeds this percentage are flagged as noisy. */
  readonly maxRme: number
  readonly cores: number
}

/**
 * A benchmark suite (the plugin pattern of fastify/benchmarks lib/bench.js): it takes the discovered
 * candidates and returns rows. Register it in src/suites/index.ts; nothing else changes.
 */
export interface Suite {
  readonly name: string
  readonly description: string
  /**
   * Runs only when named with --suite: minutes-long suites that start servers (http, stores) stay out
   * of the default quick run, which must fit in about 3 minutes.
   */
  readonly onRequestOnly?: boolean
  run(candidates: Candidates, ctx: SuiteContext): Promise<SuiteResult>
}

/** A row as a suite returns it: the harness stamps the suite's name on it. */
export type SuiteRow = Omit<Row, 'suite'>

export interface SuiteResult {
  readonly rows: readonly SuiteRow[]
  /** Context a reader needs, e.g. "UV_THREADPOOL_SIZE=4 (libuv default)". */
  readonly notes: readonly string[]
}
