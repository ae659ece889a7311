import type { PasswordHasher } from '@authlab/core'
import { nativeHashers } from '../../discover/baselines.js'
import { BENCH_PASSWORD, describeParams } from '../../discover/settings.js'
import { warmCallMs, warmUp } from '../../harness/prologue.js'
import { candidateRounds } from '../../harness/rounds.js'
import { defined, medianRow, ratioTo } from '../../harness/rows.js'
import { defineSuite, type SuiteContext } from '../../harness/suite.js'
import type { Candidates, HashCandidate } from '../../model/candidates.js'
import { median } from '../../stats/stats.js'
import { perRoundRatios } from '../../stats/verdict.js'
import { type LagBudget, type LagFigures, measureLag, TICK_MS } from './measure.js'
import { method } from './method.js'
import { view } from './view.js'

type LagRounds = readonly (LagFigures | undefined)[]
interface Plan {
  readonly candidate: HashCandidate
  readonly hasher: PasswordHasher
}

/**
 * The share of the hashing time in which the 1 ms timer still ran: about 1 for a hasher that leaves the
 * loop free, about 1 ÷ (ms per hash) for one that holds it. A steadier figure to compare than the max
 * delay, which for two free loops is a few ms of scheduling noise; 1 − event-loop utilization is 0 for
 * every blocking hasher, so it gives no ratio.
 */
const loopFree = (rounds: LagRounds) =>
  rounds.map((r) => (r ? (r.ticksPerHash * TICK_MS) / r.msPerHash : undefined))

const nativeOf = (plans: readonly Plan[], plan: Plan) =>
  plans.find((p) => p.candidate.id === nativeHashers()[plan.hasher.info.algorithm])

/**
 * What a hasher's loop-free share is divided by: the native of its algorithm and, for one that holds
 * the main thread, the same algorithm offloaded to workers, the other way not to block.
 */
function baselinesOf(plans: readonly Plan[], plan: Plan): Plan[] {
  const native = nativeOf(plans, plan)
  const { runsOn, algorithm } = plan.hasher.info
  const workers =
    runsOn === 'main-thread'
      ? plans.filter((p) => p.hasher.info.runsOn === 'worker' && p.hasher.info.algorithm === algorithm)
      : []
  return [...(native ? [native] : []), ...workers].filter((p) => p !== plan)
}

const comparisons = (plans: readonly Plan[]) => (plan: Plan, results: ReadonlyMap<Plan, LagRounds>) =>
  baselinesOf(plans, plan).map((base) => ({
    ratio: ratioTo(
      base.candidate,
      perRoundRatios(loopFree(results.get(plan) ?? []), loopFree(results.get(base) ?? []), true),
    ),
    partners: [base],
  }))

/** Built, warmed (module init, thread-pool spin-up, JIT) and sized against the quick cap; a native always runs. */
const prepare = (budget: LagBudget) => async (candidate: HashCandidate) => {
  const hasher = candidate.create()
  const native = nativeHashers()[hasher.info.algorithm] === candidate.id
  const over = (ms: number) => !native && ms > budget.callCapMs
  const callMs = await warmCallMs(candidate, hasher, over, async () => {
    const started = performance.now()
    await hasher.hash(BENCH_PASSWORD)
    return performance.now() - started
  })
  return over(callMs) ? { capped: [{ what: candidate.id, ms: callMs }] } : { plan: { candidate, hasher } }
}

function rowOf(
  plans: readonly Plan[],
  plan: Plan,
  rounds: LagRounds,
  measured: ReadonlyMap<Plan, LagRounds>,
) {
  const pick = (f: (r: LagFigures) => number) => median(rounds.flatMap((r) => (r ? [f(r)] : [])))
  return medianRow({
    group: 'event-loop delay while hashing',
    key: { setting: 'defaults', operation: 'hash' },
    candidate: plan.candidate.id,
    label: plan.candidate.label,
    perRound: rounds.map((r) => r?.maxDelayMs),
    unit: 'ms max delay',
    higherIsBetter: false,
    ratios: comparisons(plans)(plan, measured).map((c) => c.ratio),
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
    flags: nativeOf(plans, plan) === plan ? [{ kind: 'baseline' }] : [],
  })
}

async function run(candidates: Candidates, ctx: SuiteContext<LagBudget>) {
  const { budget } = ctx
  const { plans, notes } = await warmUp(ctx, candidates.hashers, {
    capMs: budget.callCapMs,
    name: (c) => c,
    prepare: prepare(budget),
  })
  ctx.progress.plan(plans.length * budget.rounds)
  const measured = await candidateRounds(ctx, {
    candidates: plans,
    budget,
    name: (plan) => plan.candidate,
    measure: (plan) => measureLag(plan.hasher, budget),
    // An undecided hasher races with its baselines, so the extra rounds stay paired by index.
    comparisons: comparisons(plans),
  })
  return { rows: plans.map((plan) => rowOf(plans, plan, measured.get(plan) ?? [], measured)), notes }
}

export const suite = defineSuite<LagBudget>({
  name: 'lag',
  order: 30,
  description:
    'Event-loop delay (max, p99), timer ticks completed per hash and event-loop utilization while each hasher runs hashes back to back at its defaults, over interleaved rounds, as per-round ratios of the loop-free share (1 ms timer ticks × 1 ms ÷ hashing time) to the native implementation of the same algorithm and, for a hasher that holds the main thread, to the same algorithm on workers.',
  baseline: 'native; a main-thread hasher also the algorithm on workers',
  budget: {
    quick: { rounds: 5, timeMs: 150, minHashes: 1, callCapMs: 400, race: { maxRounds: 16, budgetMs: 8_000 } },
    full: {
      rounds: 10,
      timeMs: 1_000,
      minHashes: 3,
      callCapMs: Number.POSITIVE_INFINITY,
      race: { maxRounds: 40, budgetMs: 60_000 },
    },
  },
  view,
  method,
  run,
})
