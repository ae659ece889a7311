import type { PasswordHasher } from '@authlab/core'
import { BENCH_PASSWORD } from '../../discover/settings.js'
import { settle } from '../../harness/sample.js'
import type { RoundsBudget } from '../../harness/suite.js'
import { median } from '../../stats/stats.js'

/** The concurrency suite. */
export interface ConcurrencyBudget extends RoundsBudget {
  /** The projected round time above which a K is skipped (not guessed). */
  readonly capMs: number
  /** Wall time a round's sequences of bursts may fill (at least one sequence, at most five). */
  readonly roundMs: number
}

/**
 * K = 1, cores, 4 × cores (single, every core busy, an oversubscribed pool) and, in full mode, a burst
 * of 32, without repeats.
 */
export function concurrencyLevels(cores: number, full = true): number[] {
  return [...new Set([1, cores, 4 * cores, ...(full ? [32] : [])])].sort((a, b) => a - b)
}

/**
 * How long one burst of K hashes should take if the strategy scales as its `runsOn` claims: a
 * main-thread strategy runs them one after another, the others spread them over the cores.
 */
export function projectedRoundMs(singleMs: number, k: number, runsOn: string, cores: number): number {
  const parallel = runsOn === 'main-thread' ? 1 : Math.min(k, cores)
  return (singleMs * k) / parallel
}

/** Wall time of K hashes started together: what a server sees when K logins arrive at once. */
export async function burst(hasher: PasswordHasher, k: number): Promise<number> {
  await settle()
  const started = performance.now()
  await Promise.all(Array.from({ length: k }, () => hasher.hash(BENCH_PASSWORD)))
  return performance.now() - started
}

export interface Plan {
  readonly id: string
  readonly label: string
  readonly hasher: PasswordHasher
  /** Levels above 1 that fit the cap, from the warm-up hash's time. */
  readonly levels: readonly number[]
  /** Sequences per round: as many as fit the round allowance (at least one). */
  readonly repeats: number
  /** The suite's A/A control: each sequence also times one hash alone a second time. */
  readonly control: boolean
}

/** One round of one hasher: the medians over its sequences. */
export interface Round {
  /** K → hashes per second of the burst. */
  readonly perSecond: ReadonlyMap<number, number>
  /** K → K-burst rate ÷ the single hash's rate of the same sequence. */
  readonly speedUp: ReadonlyMap<number, number>
  /** The second single hash's rate ÷ the first's: identical work, the A/A control (its plan only). */
  readonly control?: number
}

/** The A/A control's second single hash in a sequence. */
const AGAIN = -1

/**
 * One round: `repeats` sequences of one hash alone then each K (and, for the control, one hash alone
 * again), the order reversed every other sequence. A burst is divided by the single hash of its own
 * sequence, so the machine's speed of that moment is in both; the round keeps the median sequence.
 */
export async function measureRound(plan: Plan): Promise<Round> {
  const sequences: { single: number; again?: number; bursts: Map<number, number> }[] = []
  for (let r = 0; r < plan.repeats; r++) {
    const order = [1, ...plan.levels, ...(plan.control ? [AGAIN] : [])]
    if (r % 2 === 1) order.reverse()
    const wall = new Map<number, number>()
    for (const k of order) wall.set(k, await burst(plan.hasher, Math.abs(k)))
    const bursts = new Map(plan.levels.map((k) => [k, wall.get(k) as number]))
    sequences.push({ single: wall.get(1) as number, again: wall.get(AGAIN), bursts })
  }
  const perSecond = new Map<number, number>([[1, median(sequences.map((s) => 1000 / s.single))]])
  const speedUp = new Map<number, number>()
  for (const k of plan.levels) {
    perSecond.set(k, median(sequences.map((s) => (k * 1000) / (s.bursts.get(k) as number))))
    speedUp.set(k, median(sequences.map((s) => (k * s.single) / (s.bursts.get(k) as number))))
  }
  const control = plan.control
    ? { control: median(sequences.map((s) => s.single / (s.again as number))) }
    : {}
  return { perSecond, speedUp, ...control }
}
