import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import type { PasswordHasher } from '@authlab/core'
import { nativeHashers } from '../discover/baselines.js'
import { BENCH_PASSWORD, describeParams } from '../discover/settings.js'
import { median } from '../measure/stats.js'
import { perRoundRatios } from '../measure/verdict.js'
import { cappedNote } from '../report/words.js'
import type { HashCandidate, LagBudget, Suite } from '../types.js'
import { candidateRounds, defined, medianRow, message, ratioTo, warmCallMs } from './common.js'

/** The timer loop's period: 1 ms is Node's smallest, so a free loop completes about one tick per ms. */
const TICK_MS = 1
const NS_PER_MS = 1e6

interface LagFigures {
  readonly hashes: number
  readonly msPerHash: number
  readonly ticksPerHash: number
  readonly maxDelayMs: number
  readonly p99DelayMs: number
  /** Event-loop utilization over the run, 0..1 (perf_hooks.eventLoopUtilization). */
  readonly utilization: number
}

/**
 * The usual demonstration that a pure-JavaScript hash blocks the event loop and a native one does not (a
 * timer keeps printing while hashes run: it stalls under bcryptjs and keeps ticking under bcrypt), made
 * measurable: hashes run back to back while a 1 ms interval counts ticks and monitorEventLoopDelay
 * records how late the loop was. A strategy that blocks the main thread shows few ticks per hash and
 * a max delay near the hash time; one that offloads keeps ticking.
 */
export async function measureLag(
  hasher: PasswordHasher,
  budget: Pick<LagBudget, 'minHashes' | 'timeMs'>,
): Promise<LagFigures> {
  const histogram = monitorEventLoopDelay({ resolution: 1 })
  histogram.enable()
  // The histogram records the gap between two of its own timer runs, so its first run only sets a
  // start: without one before the hashes, a single hash that holds the loop would be recorded as no delay.
  await new Promise((resolve) => setTimeout(resolve, 2 * TICK_MS))
  let ticks = 0
  const timer = setInterval(() => ticks++, TICK_MS)
  const eluStart = performance.eventLoopUtilization()
  const started = performance.now()
  let hashes = 0
  let elapsed = 0
  let utilization = 0
  try {
    try {
      while (hashes < budget.minHashes || performance.now() - started < budget.timeMs) {
        await hasher.hash(BENCH_PASSWORD)
        hashes++
        // Back to the event loop between hashes, as a server is between requests: overdue timers run,
        // so the delay recorded is what one hash costs the loop, not the whole back-to-back series.
        await new Promise((resolve) => setImmediate(resolve))
      }
      // A timers phase after the last hash: a setImmediate resumes in the check phase, before the next
      // timers phase, so without it the last hash's overdue tick (and its histogram delay) would be lost,
      // and a round of one blocking hash would count no tick at all.
      await new Promise((resolve) => setTimeout(resolve, 2 * TICK_MS))
    } finally {
      clearInterval(timer)
    }
    elapsed = performance.now() - started
    utilization = performance.eventLoopUtilization(eluStart).utilization
  } finally {
    histogram.disable()
  }
  return {
    hashes,
    msPerHash: elapsed / hashes,
    ticksPerHash: ticks / hashes,
    maxDelayMs: histogram.max / NS_PER_MS,
    p99DelayMs: histogram.percentile(99) / NS_PER_MS,
    utilization,
  }
}

/** The lag figures of each round, by hasher. */
type LagRounds = readonly (LagFigures | undefined)[]

export const lagSuite: Suite = {
  name: 'lag',
  description:
    'Event-loop delay (max, p99), timer ticks completed per hash and event-loop utilization while each hasher runs hashes back to back at its defaults, over interleaved rounds, as per-round ratios of the loop-free share (1 ms timer ticks × 1 ms ÷ hashing time) to the native implementation of the same algorithm and, for a hasher that holds the main thread, to the same algorithm on workers.',
  async run(candidates, ctx) {
    const budget = ctx.budget.lag
    const notes: string[] = []
    const capped: { what: string; ms: number }[] = []
    const plans: { candidate: HashCandidate; hasher: PasswordHasher }[] = []
    for (const candidate of candidates.hashers) {
      try {
        const hasher = candidate.create()
        // A native is the others' baseline, so the cap leaves it in.
        const native = nativeHashers()[hasher.info.algorithm] === candidate.id
        const over = (ms: number) => !native && ms > budget.callCapMs
        // Warm-up (module init, thread-pool spin-up, JIT), and the quick cap on a call's cost.
        const callMs = await warmCallMs(candidate, hasher, over, async () => {
          const started = performance.now()
          await hasher.hash(BENCH_PASSWORD)
          return performance.now() - started
        })
        if (over(callMs)) {
          capped.push({ what: candidate.id, ms: callMs })
          continue
        }
        plans.push({ candidate, hasher })
      } catch (error) {
        notes.push(`${candidate.id} failed: ${message(error)}`)
      }
    }
    notes.push(...cappedNote(budget.callCapMs, capped))
    ctx.progress.plan(plans.length * budget.rounds)
    // The share of the hashing time in which the 1 ms timer still ran: about 1 for a hasher that leaves
    // the loop free, about 1 ÷ (ms per hash) for one that holds it. A steadier figure to compare than the
    // max delay, which for two free loops is a few ms of scheduling noise; 1 − event-loop utilization
    // is 0 for every blocking hasher, so it gives no ratio.
    const loopFree = (rounds: LagRounds) =>
      rounds.map((r) => (r ? (r.ticksPerHash * TICK_MS) / r.msPerHash : undefined))
    type Plan = (typeof plans)[number]
    const nativeOf = (plan: Plan) =>
      plans.find((p) => p.candidate.id === nativeHashers()[plan.hasher.info.algorithm])
    // What a hasher's loop-free share is divided by: the native of its algorithm and, for one that
    // holds the main thread, the same algorithm offloaded to workers, the other way not to block.
    const baselinesOf = (plan: Plan): Plan[] => {
      const native = nativeOf(plan)
      const workers =
        plan.hasher.info.runsOn === 'main-thread'
          ? plans.filter(
              (p) =>
                p.hasher.info.runsOn === 'worker' && p.hasher.info.algorithm === plan.hasher.info.algorithm,
            )
          : []
      return [...(native ? [native] : []), ...workers].filter((p) => p !== plan)
    }
    const ratiosOf = (plan: Plan, results: ReadonlyMap<Plan, LagRounds>) =>
      baselinesOf(plan).map((base) => ({
        ratio: ratioTo(
          base.candidate,
          perRoundRatios(loopFree(results.get(plan) ?? []), loopFree(results.get(base) ?? []), true),
        ),
        partners: [base],
      }))
    const measured = await candidateRounds(ctx, notes, {
      candidates: plans,
      budget,
      name: (plan) => plan.candidate,
      measure: (plan) => measureLag(plan.hasher, budget),
      // An undecided hasher races with its baselines, so the extra rounds stay paired by index.
      comparisons: ratiosOf,
    })
    const rows = plans.map((plan) => {
      const rounds = measured.get(plan) ?? []
      const pick = (f: (r: LagFigures) => number) => median(rounds.flatMap((r) => (r ? [f(r)] : [])))
      return medianRow({
        group: 'event-loop delay while hashing',
        key: { setting: 'defaults', operation: 'hash' },
        candidate: plan.candidate.id,
        label: plan.candidate.label,
        perRound: rounds.map((r) => r?.maxDelayMs),
        unit: 'ms max delay',
        higherIsBetter: false,
        ratios: ratiosOf(plan, measured).map((c) => c.ratio),
        details: {
          'p99 delay ms': pick((r) => r.p99DelayMs),
          'ticks/hash': pick((r) => r.ticksPerHash),
          'loop free %': 100 * median(defined(loopFree(rounds))),
          'ms/hash': pick((r) => r.msPerHash),
          'ELU %': 100 * pick((r) => r.utilization),
          hashes: rounds.reduce((n, r) => n + (r?.hashes ?? 0), 0),
          params: describeParams(plan.hasher),
          'runs on': plan.hasher.info.runsOn,
        },
        flags: nativeOf(plan) === plan ? ['baseline'] : [],
      })
    })
    return { rows, notes }
  },
  method: ({ lag: budget }) =>
    `${budget.rounds} rounds at least (more, up to the race budget, for a hasher whose ratio is undecided, with its baselines), hashers in a fresh random order per round; in each, a hasher hashes back to back for ${budget.timeMs} ms (at least ${budget.minHashes} hashes) while a ${TICK_MS} ms interval ticks: a non-blocking hasher completes about (ms/hash ÷ ${TICK_MS}) ticks per hash, a blocking one about 1. Value = median over rounds of the max delay. Ratio = this hasher's loop-free share (ticks × tick ÷ hashing time) ÷ native's (and, for a main-thread hasher, ÷ the same algorithm's on workers), per round: 1 when both leave the loop free, far below 1 for a hasher that holds it.`,
}
