import type { IdGenerator, KeyDerivation, PasswordHasher, Stretcher } from '@authlab/core'
import type { SuiteKey } from './keys.js'

// The workspace registry's types: one definition of what a discovered package is.
export type { LoadedPackage, StrategyPackage } from '@authlab/workspace'

/** Where a candidate comes from, so a measuring child process can rebuild it by id. */
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
  /** The options that make it hash with `algorithm` at `params` as the package declares them; undefined: not implemented. */
  readonly optionsFor: (
    algorithm: string,
    params: Readonly<Record<string, number>>,
  ) => Record<string, unknown> | undefined
  readonly source: CandidateSource
  /**
   * The candidate this one is, at one of the bench's cost settings as its defaults: for the suites that
   * run defaults only (lag, concurrency). The hash suite times that setting in its own table, so it skips it.
   */
  readonly variantOf?: string
}

/** A key-stretching chain; `create` takes the `scrypt` step to use (how the stretch suite builds rows [2]–[4]). */
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
  /** The margin in percent it was judged at, when not MIN_EFFECT_PCT (a README claim's reading only). */
  readonly margin?: number
}

/** One measured figure: every reporter renders rows only, so a suite never formats output itself. */
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
  /** CPU time per sample, the batch doubled until it takes this long: short, so a pair sees one machine speed. */
  readonly sampleMs: number
  /** Pairs of batches, candidate and yardstick. */
  readonly samples: number
  /** How long one round's process may run before it is killed (default: see `roundTimeLimitMs`). */
  readonly roundLimitMs?: number
}

/** Extra rounds for undecided comparisons: `maxRounds` in all, within `budgetMs` of wall time. Absent: fixed rounds. */
export interface RaceBudget {
  readonly maxRounds: number
  readonly budgetMs: number
}

/** What every suite's budget has: its minimum rounds, and its allowance for extra ones. */
export interface RoundsBudget {
  readonly rounds: number
  readonly race?: RaceBudget
}

/** The ids suite: every candidate once per round, each in its own process. */
export interface IdsBudget extends RoundsBudget {
  readonly sampling: IdSampling
  /** The retained-heap measurement: IDs generated (one in `keepEvery` kept), repeats (the least is kept), warm-up IDs. */
  readonly heap: { readonly ids: number; readonly repeats: number; readonly warmup: number }
}

/** The hash suite: hash, then verify, per configuration per round. */
export interface HashBudget extends RoundsBudget {
  /** CPU time each operation is repeated for within a round (at least one call). */
  readonly roundMs: number
  /** A configuration whose one warm call takes longer than this is not run (noted, not guessed). */
  readonly callCapMs: number
  /** Cost-equalised settings run: one per algorithm family, or all of them. */
  readonly allSettings: boolean
  /** Time verify at the cost settings too (always at the defaults). */
  readonly settingVerifies: boolean
}

/** The lag suite: per round, each hasher hashes back to back for `timeMs` (at least `minHashes`). */
export interface LagBudget extends RoundsBudget {
  readonly timeMs: number
  readonly minHashes: number
  /** A hasher whose one warm call takes longer than this is not run (noted, not guessed). */
  readonly callCapMs: number
}

/** The concurrency suite. */
export interface ConcurrencyBudget extends RoundsBudget {
  /** The projected round time above which a K is skipped (not guessed). */
  readonly capMs: number
  /** Wall time a round's sequences of bursts may fill (at least one sequence, at most five). */
  readonly roundMs: number
}

/**
 * The server suites: per round a fresh server, warmed in `windowSec` windows until its rate stops rising
 * (at most `warmupSec`), then `windows` cycles of one window per candidate; login servers get `warmupLogins` first.
 */
export interface HttpBudget extends RoundsBudget {
  readonly warmupSec: number
  readonly windowSec: number
  readonly windows: number
  readonly loginRounds: number
  readonly loginSec: number
  readonly warmupLogins: number
}

/** Each suite's own budget, for a quick or a full run (src/measure/budget.ts). */
export interface Budget {
  readonly mode: 'quick' | 'full'
  readonly ids: IdsBudget
  readonly hash: HashBudget
  readonly lag: LagBudget
  readonly concurrency: ConcurrencyBudget
  /** The time each stretch job is repeated for within a round (at least one call). */
  readonly stretch: RoundsBudget & { readonly roundMs: number }
  readonly http: HttpBudget
}

export interface SuiteContext {
  readonly budget: Budget
  readonly progress: Progress
  readonly cores: number
  /** Seeds the order of the rounds, so a run's schedule can be reproduced. */
  readonly seed: number
  /** `--rtt`: a simulated network round trip (ms) for suites that call a remote service; absent = none. */
  readonly simulatedRttMs?: number
  /** Runs every later suite (only for a suite that `spreadsRounds` and has some); a second call does nothing. */
  readonly interlude?: () => Promise<void>
}

/** A benchmark suite (the plugin pattern of fastify/benchmarks lib/bench.js): candidates in, rows out. */
export interface Suite {
  readonly name: string
  readonly description: string
  /** Runs only when named with --suite: minutes-long server suites stay out of the default quick run. */
  readonly onRequestOnly?: boolean
  /** `one-core`: the harness pins the process (threads, children) to one core, as CPU-time figures need. */
  readonly placement?: 'one-core'
  /**
   * Every round runs in a fresh process (or server), so the rounds' spread includes the shift between
   * processes and `compare` may judge one run against one (otherwise it needs two or more a side).
   */
  readonly roundsAreProcesses?: boolean
  /**
   * Half of its rounds run first and the rest after every other suite (`ctx.interlude`), so its
   * intervals include how the machine moves over minutes, not only over the seconds between rounds.
   */
  readonly spreadsRounds?: boolean
  /** How the suite measures and what its ratios divide: shown by the reports and `--explain`. */
  method(budget: Budget): string
  run(candidates: Candidates, ctx: SuiteContext): Promise<SuiteResult>
}

/** A row as a suite returns it: the harness stamps the suite's name on it. */
export type SuiteRow = Omit<Row, 'suite'>

export interface SuiteResult {
  readonly rows: readonly SuiteRow[]
  /** What this run found that a reader needs beside the method: a failure, a skipped configuration, a pin. */
  readonly notes: readonly string[]
}
