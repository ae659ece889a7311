/**
 * What a suite declares (the plugin pattern of fastify/benchmarks lib/bench.js, one folder a suite:
 * src/suites/<name>/): what it measures, its budgets, its method text, its run and its view. The harness
 * does the rest: discovery, placement, rounds, progress, the results file and every report.
 */
import type { EntryCandidate } from '@authlab/runtimes/entry'
import type { LoadedPackage } from '@authlab/workspace'
import type { Candidates } from '../model/candidates.js'
import type { Row, SuiteKey } from '../model/types.js'
import type { SuiteView } from '../model/view.js'

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

export type Mode = 'quick' | 'full'

export interface Progress {
  /** Declares how many steps the current suite will take, for the time-left estimate. */
  plan(steps: number): void
  /** Announces the step about to run. */
  step(label: string): void
  /** A one-off remark (e.g. a skipped candidate). */
  note(message: string): void
}

export interface SuiteContext<B extends RoundsBudget = RoundsBudget> {
  /** This suite's budget for the run's mode. */
  readonly budget: B
  readonly mode: Mode
  readonly progress: Progress
  readonly cores: number
  /** Seeds the order of the rounds, so a run's schedule can be reproduced. */
  readonly seed: number
  /** `--rtt`: a simulated network round trip (ms) for suites that call a remote service; absent = none. */
  readonly simulatedRttMs?: number
  /** Runs every later suite (only for a suite that `spreadsRounds` and has some); a second call does nothing. */
  readonly interlude?: () => Promise<void>
  /** Records a round that failed: the terminal and the reports name its candidate and why. */
  readonly failed: (candidate: string, reason: string) => void
}

/** A row as a suite returns it: the harness stamps the suite's name on it. */
export type SuiteRow = Omit<Row, 'suite'>

export interface SuiteResult {
  readonly rows: readonly SuiteRow[]
  /** What this run found that a reader needs beside the method: a skipped configuration, a pin. */
  readonly notes: readonly string[]
}

/** A candidate inside another runtime: a module and the call the generated entry times. */
export interface RuntimeCandidate extends EntryCandidate {
  readonly label: string
  /** Left out, with the reason noted, when the runtime cannot load it (a framework's Node-only code). */
  readonly optional?: boolean
}

/** A group's candidates once what they call is running (a helper process), and how to stop it. */
export interface PreparedGroup {
  readonly candidates: readonly RuntimeCandidate[]
  /** What the run found while starting it (where the helper ran, what loopback costs). */
  readonly notes: readonly string[]
  close(): Promise<void>
}

/** Candidates measured together in interleaved rounds, with the one their ratios divide by. */
export interface RuntimeGroup {
  readonly group: string
  readonly key: SuiteKey
  readonly unit: string
  readonly baseline: string
  readonly candidates: readonly RuntimeCandidate[]
  /** References of another runtime this group leaves out, each with why. */
  readonly notes?: readonly string[]
  /**
   * Starts what the candidates call before the group runs, and gives the candidates that call it
   * (their setup code carries its address); the runner closes it after the group, whatever happened.
   */
  readonly prepare?: () => Promise<PreparedGroup>
}

/** How a suite runs inside other runtimes (`--runtime`): its groups there and their rounds. */
export interface PortableSuite<B extends RoundsBudget> {
  /** The kinds of strategy package it measures: each one that does not claim a runtime is noted with why. */
  readonly kinds: readonly string[]
  /** The groups measured inside `runtime`, from the packages whose manifests claim it. */
  groups(runtime: string, claiming: readonly LoadedPackage[]): RuntimeGroup[]
  /** The shortest timed batch there, at this budget. */
  minBatchMs(budget: B): number
}

export interface SuiteDeclaration<B extends RoundsBudget = RoundsBudget> {
  readonly name: string
  /** Where it runs among the suites (lower first) and its tables appear. */
  readonly order: number
  readonly description: string
  /** What its ratios divide by, in a few words: the README's table of suites says the same. */
  readonly baseline: string
  readonly budget: { readonly quick: B; readonly full: B }
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
  readonly portable?: PortableSuite<B>
  readonly view?: SuiteView
  /** How the suite measures and what its ratios divide: shown by the reports and `--explain`. */
  method(budget: B): string
  run(candidates: Candidates, ctx: SuiteContext<B>): Promise<SuiteResult>
}

/** A declaration of any budget, as the harness holds them side by side. */
// biome-ignore lint/suspicious/noExplicitAny: each suite's budget is its own type; the harness only passes it back
export type AnySuite = SuiteDeclaration<any>

/** Declares a suite, its budget's type checked against its own method and run. */
export const defineSuite = <B extends RoundsBudget>(suite: SuiteDeclaration<B>): SuiteDeclaration<B> => suite
