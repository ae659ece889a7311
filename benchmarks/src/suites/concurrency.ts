import type { PasswordHasher } from '@authlab/core'
import { threadpoolNote } from '@authlab/workspace'
import { nativeHashers } from '../discover/baselines.js'
import { BENCH_PASSWORD, describeParams } from '../discover/settings.js'
import { pinMainThread } from '../measure/placement.js'
import { settle } from '../measure/sample.js'
import { median } from '../measure/stats.js'
import { CONTROL_FLAG, limitFlags, summarizeRatio } from '../measure/verdict.js'
import { cappedNote } from '../report/words.js'
import type { Ratio, Suite, SuiteRow } from '../types.js'
import { candidateRounds, medianRow, message, warmCallMs } from './common.js'

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
async function burst(hasher: PasswordHasher, k: number): Promise<number> {
  await settle()
  const started = performance.now()
  await Promise.all(Array.from({ length: k }, () => hasher.hash(BENCH_PASSWORD)))
  return performance.now() - started
}

interface Plan {
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
interface Round {
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
async function measureRound(plan: Plan): Promise<Round> {
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

const ONE_ALONE = 'K=1, one hash alone in the same sequences'

export const concurrencySuite: Suite = {
  name: 'concurrency',
  description:
    'Hashes per second with K concurrent hashes (K = 1, cores, 4×cores; 32 in full mode), as the speed-up over one hash alone in the same round, against the limit min(K, cores): offloading strategies scale, main-thread ones do not.',
  async run(candidates, ctx) {
    const budget = ctx.budget.concurrency
    const full = !Number.isFinite(budget.capMs)
    const levels = concurrencyLevels(ctx.cores, full).filter((k) => k > 1)
    const rows: SuiteRow[] = []
    const notes: string[] = []
    const capped: { what: string; ms: number }[] = []
    const plans: Plan[] = []
    ctx.progress.plan(candidates.hashers.length * (budget.rounds + 1))
    for (const candidate of candidates.hashers) {
      ctx.progress.step(`warm-up · ${candidate.label}`)
      try {
        const hasher = candidate.create()
        const cap = budget.capMs
        const projectedAt = (ms: number, k: number) => projectedRoundMs(ms, k, hasher.info.runsOn, ctx.cores)
        // A configuration an earlier suite timed and no K of which fits is left out without timing it again.
        const noneFits = (ms: number) => !levels.some((k) => projectedAt(ms, k) <= cap)
        const singleMs = await warmCallMs(candidate, hasher, noneFits, async () => {
          await burst(hasher, 1) // warm-up (module init, pool spin-up, JIT), not timed
          return burst(hasher, 1)
        })
        const projected = (k: number) => projectedAt(singleMs, k)
        const fits = levels.filter((k) => projected(k) <= cap)
        const over = levels.filter((k) => projected(k) > cap)
        // With no K above 1 the hasher has no speed-up to report: its single-hash time is the lag
        // suite's business, so its rounds are not spent.
        if (fits.length === 0 && over.length > 0) {
          capped.push({ what: `${candidate.id} (a burst of K=${over[0]})`, ms: projected(over[0] as number) })
          continue
        }
        for (const k of over) capped.push({ what: `${candidate.id} K=${k}`, ms: projected(k) })
        const sequenceMs = 2 * singleMs + fits.reduce((sum, k) => sum + projected(k), 0)
        const repeats = Math.max(1, Math.min(5, Math.floor(budget.roundMs / sequenceMs)))
        const control = candidate.id === nativeHashers().bcrypt
        plans.push({ id: candidate.id, label: candidate.label, hasher, levels: fits, repeats, control })
      } catch (error) {
        notes.push(`${candidate.id} failed: ${message(error)}`)
      }
    }
    notes.push(...cappedNote(budget.capMs, capped))
    const speedUpAt = (rounds: readonly (Round | undefined)[], k: number) =>
      rounds.flatMap((r) => (r?.speedUp.has(k) ? [r.speedUp.get(k) as number] : []))
    const ratioAt = (rounds: readonly (Round | undefined)[], k: number): Ratio =>
      summarizeRatio({ label: ONE_ALONE, against: 'K=1' }, speedUpAt(rounds, k))
    const controlOf = (rounds: readonly (Round | undefined)[]) =>
      summarizeRatio(
        { label: 'the first single hash of each sequence', against: 'K=1:first' },
        rounds.flatMap((r) => (r?.control !== undefined ? [r.control] : [])),
      )
    // The event loop on one core, the pools (started by the warm-ups above) on every core.
    const pinned = pinMainThread()
    const mainCpu = pinned?.last
    const measured = await candidateRounds(ctx, notes, {
      candidates: plans,
      budget,
      name: (plan) => plan,
      measure: measureRound,
      // A plan's ratios are inside its own rounds (each burst beside a single hash), so it races alone.
      comparisons: (plan, results) => {
        const rounds = results.get(plan) ?? []
        return [
          ...(plan.control ? [controlOf(rounds)] : []),
          ...plan.levels.map((k) => ratioAt(rounds, k)),
        ].map((ratio) => ({ ratio }))
      },
    }).finally(() => pinned?.release())
    for (const plan of plans) {
      const rounds = measured.get(plan) ?? []
      const hashesPerSecond = {
        unit: 'hashes/s',
        higherIsBetter: true,
        candidate: plan.id,
        label: plan.label,
      }
      if (plan.control) {
        rows.push(
          medianRow({
            ...hashesPerSecond,
            group: 'K=1 again (A/A control)',
            key: { setting: 'K=1', operation: 'hash' },
            perRound: rounds.map((r) =>
              r?.control !== undefined ? r.control * (r.perSecond.get(1) as number) : undefined,
            ),
            ratios: [controlOf(rounds)],
            details: { sequences: plan.repeats },
            flags: [CONTROL_FLAG],
          }),
        )
      }
      for (const k of [1, ...plan.levels]) {
        const ratio = k === 1 ? undefined : ratioAt(rounds, k)
        const limit = Math.min(k, ctx.cores)
        rows.push(
          medianRow({
            ...hashesPerSecond,
            group: `K=${k}`,
            key: { setting: `K=${k}`, operation: 'hash' },
            perRound: rounds.map((r) => r?.perSecond.get(k)),
            ratios: ratio ? [ratio] : [],
            details: {
              ...(ratio ? { 'limit min(K, cores)': limit, '× limit': ratio.value / limit } : {}),
              sequences: plan.repeats,
              params: describeParams(plan.hasher),
              'runs on': plan.hasher.info.runsOn,
            },
            flags: limitFlags(ratio, limit),
          }),
        )
      }
    }
    notes.push(
      `${threadpoolNote()}; ${ctx.cores} cores, the event loop pinned ${mainCpu === undefined ? 'nowhere (one core, or no taskset)' : `to CPU ${mainCpu}`}.`,
    )
    return { rows, notes }
  },
  method: ({ concurrency: budget }) =>
    `Every core in use (parallelism is the point, so only the event loop is pinned, and the suite is timed in wall time: load from other processes lowers its figures). ${budget.rounds} rounds at least (more, up to the race budget, while a ratio is undecided), hashers in a fresh random order per round; a round is one or more sequences (as many as fit ${budget.roundMs} ms; "sequences" in the details) of one hash alone, a burst of each K started together, and one hash alone again, the order reversed every other sequence. Ratio = the burst's hashes/s ÷ the single hash's of the same sequence, the median over a round's sequences: the speed-up, at most min(K, cores) (× limit in the details), about min(K, cores) for a strategy that spreads over the cores, 1 for one on the main thread. The A/A control (native bcrypt's plan) times one hash alone twice in each sequence and divides the two.`,
}
