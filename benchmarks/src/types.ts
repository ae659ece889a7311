import type { IdGenerator, KeyDerivation, PasswordHasher, Stretcher } from '@authlab/core'
import type { SuiteKey } from './keys.js'

// The workspace registry's types: one definition of what a discovered package is.
export type { LoadedPackage, StrategyPackage } from '@authlab/workspace'

/**
 * Where a candidate comes from, so a measuring child process can rebuild it by id: a bench reference,
 * a workspace package (discovered under `root`), or a user's module given with `--candidate`.
 */
export type CandidateSource =
  | { readonly kind: 'reference' }
  | { readonly kind: 'package'; readonly root: string }
  | { readonly kind: 'file'; readonly file: string }

/** Something an ids suite can measure: a package's generator, a user's module or a bench-only reference. */
export interface IdCandidate {
  /** Stable key across runs (package name, `ref:<name>` for references, `file:<name>` for modules). */
  readonly id: string
  readonly label: string
  readonly create: () => IdGenerator
  readonly source: CandidateSource
}

/** Something the hashing suites measure; `create` takes the package's own options. */
export interface HashCandidate {
  readonly id: string
  readonly label: string
  readonly create: (options?: Record<string, unknown>) => PasswordHasher
  /**
   * The options that make it hash with `algorithm` at `params`, or undefined when it does not implement
   * that algorithm: declared by the package (its algorithms), never guessed by trying.
   */
  readonly optionsFor: (
    algorithm: string,
    params: Readonly<Record<string, number>>,
  ) => Record<string, unknown> | undefined
  readonly source: CandidateSource
}

/**
 * A key-stretching chain: `create` takes the chain's options, among them the `scrypt` step to use
 * (local, compiled to JS or remote), which is how the stretch suite builds Mozilla's rows [2]–[4].
 */
export interface StretchCandidate {
  readonly id: string
  readonly label: string
  readonly create: (options?: { readonly scrypt?: KeyDerivation }) => Stretcher
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

/**
 * A ratio to a baseline measured in the same run, oriented so > 1 is better: the median of the
 * per-round ratios (each round's candidate ÷ that round's baseline) with a 95 % interval across rounds.
 */
export interface Ratio {
  /** The baseline's display label. */
  readonly baseline: string
  /** The baseline's id (a candidate id, or `K=1`): what claims select a ratio by. */
  readonly against?: string
  readonly value: number
  readonly low: number
  readonly high: number
  /** The per-round ratios in round order: what `compare` ranks. */
  readonly rounds: readonly number[]
  /** What the interval decides, by the rule in src/measure/verdict.ts. */
  readonly verdict: 'better' | 'worse' | 'same' | 'undecided'
  /** Why a verdict is not published although the interval decides it (the suite's A/A control failed). */
  readonly withheld?: string
  /**
   * The margin in percent this ratio was judged at, when not the suites' MIN_EFFECT_PCT: only a README
   * claim's reading carries one; results files never do.
   */
  readonly margin?: number
}

/**
 * One measured figure. Every reporter (terminal, JSON, Markdown, SVG) renders rows only, so a suite
 * never formats output itself.
 */
export interface Row {
  readonly suite: string
  /** Section within the suite, for display: a parameter setting, a K, a table it reproduces. */
  readonly group: string
  /** Stable candidate id. */
  readonly candidate: string
  /** What the row measures besides its suite and candidate (src/keys.ts); rows of older files have none. */
  readonly key?: SuiteKey
  readonly label: string
  /** The runtime that measured it (`--runtime` ids: node, node24, node22, bun, deno, chromium, firefox). */
  readonly runtime?: string
  /** The headline figure and its unit, e.g. 1.2e6 "IDs/s" or 74.1 "ms/hash". */
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

/** How one round of one ids candidate is sampled, inside its own process. */
export interface IdSampling {
  /** CPU time spent generating before sampling: JIT tiers, pools filled, caches warm. */
  readonly warmupMs: number
  /**
   * CPU time per sample; the batch size is doubled until one batch takes at least this long. Short
   * batches (a few ms) keep both sides of a pair within the same stretch of machine speed.
   */
  readonly sampleMs: number
  /** Pairs of batches, candidate and yardstick. */
  readonly samples: number
  /** How long one round's process may run before it is killed (default: see `roundTimeLimitMs`). */
  readonly roundLimitMs?: number
}

export interface Budget {
  /** Rounds of the ids suite: every candidate once per round, each in its own process. */
  readonly idRounds: number
  readonly idSampling: IdSampling
  /** IDs generated for the retained-heap measurement, one in `keepEvery` kept. */
  readonly heapIds: number
  /** Retained-heap measurements per candidate (the median is reported) and IDs generated first to warm. */
  readonly heapRepeats: number
  readonly heapWarmup: number
  /** Rounds of the hash suite: hash, then verify, per configuration per round. */
  readonly hashRounds: number
  /** Hash suite: CPU time each operation is repeated for within a round (at least one call). */
  readonly hashRoundMs: number
  /** Hash suite: a configuration whose one warm call takes longer than this is not run (noted, not guessed). */
  readonly hashCallCapMs: number
  /** Cost-equalised settings run: `quick` runs one per algorithm family, `full` all of them. */
  readonly allSettings: boolean
  /** Hash suite: time verify at the cost settings too (always at the defaults). */
  readonly settingVerifies: boolean
  /** Lag suite: time to hash back to back per hasher (at least `lagMinHashes`). */
  readonly lagTimeMs: number
  readonly lagMinHashes: number
  /** Concurrency: rounds, and the projected round time above which a K is skipped (not guessed). */
  readonly concurrencyRounds: number
  readonly concurrencyCapMs: number
  /** Concurrency: wall time a round's sequences of bursts may fill (at least one sequence, at most five). */
  readonly concurrencyRoundMs: number
  /** Stretch: rounds per backend, and the time each is repeated for within a round (at least one call). */
  readonly stretchRounds: number
  readonly stretchRoundMs: number
  /** Lag suite: rounds per hasher, each `lagTimeMs` of back-to-back hashes. */
  readonly lagRounds: number
  /**
   * Rounds after the first ones, for the comparisons still undecided (src/measure/rounds.ts): at most
   * `maxRounds` in all, within each suite's wall-time allowance in ms. Absent: fixed rounds.
   */
  readonly race?: {
    readonly maxRounds: number
    readonly idsMs: number
    readonly hashMs: number
    readonly concurrencyMs: number
    readonly stretchMs: number
    readonly lagMs: number
    readonly inFrameworkMs: number
  }
}

export interface SuiteContext {
  readonly budget: Budget
  readonly progress: Progress
  readonly cores: number
  /** Seeds the order of the rounds, so a run's schedule can be reproduced. */
  readonly seed: number
  /** `--rtt`: a simulated network round trip (ms) for suites that call a remote service; absent = none. */
  readonly simulatedRttMs?: number
  /**
   * Runs every suite after this one and resolves when they are done: given only to a suite that
   * `spreadsRounds` and has suites after it. A second call does nothing.
   */
  readonly interlude?: () => Promise<void>
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
   * of the default quick run, which takes under 4 minutes on 2 cores.
   */
  readonly onRequestOnly?: boolean
  /**
   * `one-core`: the harness pins this process (and so every thread and child process) to one core for
   * the suite, as CPU-time figures need (src/measure/placement.ts). Default: every core.
   */
  readonly placement?: 'one-core'
  /**
   * Every round runs in a fresh process (or server), so the rounds' spread includes the shift from one
   * process to the next and `compare` may judge one run against one. Default: the rounds share one
   * process per run, and `compare` needs two or more runs a side.
   */
  readonly roundsAreProcesses?: boolean
  /**
   * Half of its rounds run first and the rest after every other suite of the run (`ctx.interlude`),
   * so its rounds span the run's minutes and its intervals include how the machine moved over them: a
   * suite of fast, syscall-bound work read one baseline 20 % apart in two runs minutes apart while its
   * rounds, seconds apart, agreed within a few percent. Default: rounds back to back.
   */
  readonly spreadsRounds?: boolean
  run(candidates: Candidates, ctx: SuiteContext): Promise<SuiteResult>
}

/** A row as a suite returns it: the harness stamps the suite's name on it. */
export type SuiteRow = Omit<Row, 'suite'>

export interface SuiteResult {
  readonly rows: readonly SuiteRow[]
  /** Context a reader needs, e.g. "UV_THREADPOOL_SIZE=4 (libuv default)". */
  readonly notes: readonly string[]
}
