import { threadpoolNote } from '@authlab/workspace'
import { nativeHashers } from '../../discover/baselines.js'
import { describeParams } from '../../discover/settings.js'
import { pinMainThread } from '../../harness/placement.js'
import { type Capped, warmCallMs, warmUp } from '../../harness/prologue.js'
import { candidateRounds } from '../../harness/rounds.js'
import { CONTROL_SUFFIX, medianRow } from '../../harness/rows.js'
import { defineSuite, type SuiteContext, type SuiteRow } from '../../harness/suite.js'
import type { Candidates, HashCandidate } from '../../model/candidates.js'
import type { Ratio } from '../../model/types.js'
import { limitFlags, summarizeRatio } from '../../stats/verdict.js'
import {
  burst,
  type ConcurrencyBudget,
  concurrencyLevels,
  measureRound,
  type Plan,
  projectedRoundMs,
  type Round,
} from './burst.js'
import { method } from './method.js'
import { view } from './view.js'

type Rounds = readonly (Round | undefined)[]

const ratioAt = (rounds: Rounds, k: number): Ratio =>
  summarizeRatio(
    { label: 'K=1, one hash alone in the same sequences', against: 'K=1' },
    rounds.flatMap((r) => (r?.speedUp.has(k) ? [r.speedUp.get(k) as number] : [])),
  )

const controlRatio = (rounds: Rounds) =>
  summarizeRatio(
    { label: 'the first single hash of each sequence', against: 'K=1:first' },
    rounds.flatMap((r) => (r?.control !== undefined ? [r.control] : [])),
  )

/**
 * Built, warmed and timed alone (module init, pool spin-up, JIT first), then the levels whose projected
 * burst fits the cap. With no K above 1 the hasher has no speed-up to report: its single-hash time is
 * the lag suite's business, so its rounds are not spent.
 */
const prepare =
  (ctx: SuiteContext<ConcurrencyBudget>, levels: readonly number[]) => async (candidate: HashCandidate) => {
    const hasher = candidate.create()
    const cap = ctx.budget.capMs
    const projectedAt = (ms: number, k: number) => projectedRoundMs(ms, k, hasher.info.runsOn, ctx.cores)
    // A configuration an earlier suite timed and no K of which fits is left out without timing it again.
    const noneFits = (ms: number) => !levels.some((k) => projectedAt(ms, k) <= cap)
    const singleMs = await warmCallMs(candidate, hasher, noneFits, async () => {
      await burst(hasher, 1) // warm-up, not timed
      return burst(hasher, 1)
    })
    const fits = levels.filter((k) => projectedAt(singleMs, k) <= cap)
    const over = levels.filter((k) => projectedAt(singleMs, k) > cap)
    if (fits.length === 0 && over.length > 0)
      return {
        capped: [
          { what: `${candidate.id} (a burst of K=${over[0]})`, ms: projectedAt(singleMs, over[0] as number) },
        ],
      }
    const capped: Capped[] = over.map((k) => ({
      what: `${candidate.id} K=${k}`,
      ms: projectedAt(singleMs, k),
    }))
    const sequenceMs = 2 * singleMs + fits.reduce((sum, k) => sum + projectedAt(singleMs, k), 0)
    const repeats = Math.max(1, Math.min(5, Math.floor(ctx.budget.roundMs / sequenceMs)))
    const control = candidate.id === nativeHashers().bcrypt
    const plan: Plan = { id: candidate.id, label: candidate.label, hasher, levels: fits, repeats, control }
    return { plan, capped }
  }

/** The A/A control's row, then one row per K: hashes/s, and above K=1 the speed-up over one hash alone. */
function rowsOf(plan: Plan, rounds: Rounds, cores: number): SuiteRow[] {
  const common = { unit: 'hashes/s', higherIsBetter: true, candidate: plan.id, label: plan.label }
  const control = plan.control
    ? [
        medianRow({
          ...common,
          candidate: `${plan.id}${CONTROL_SUFFIX}`,
          group: 'K=1 again (A/A control)',
          key: { setting: 'K=1', operation: 'hash' },
          perRound: rounds.map((r) =>
            r?.control !== undefined ? r.control * (r.perSecond.get(1) as number) : undefined,
          ),
          ratios: [controlRatio(rounds)],
          details: { sequences: plan.repeats },
          flags: [{ kind: 'control' }],
        }),
      ]
    : []
  return [
    ...control,
    ...[1, ...plan.levels].map((k) => {
      const ratio = k === 1 ? undefined : ratioAt(rounds, k)
      const limit = Math.min(k, cores)
      return medianRow({
        ...common,
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
      })
    }),
  ]
}

async function run(candidates: Candidates, ctx: SuiteContext<ConcurrencyBudget>) {
  const { budget } = ctx
  const levels = concurrencyLevels(ctx.cores, ctx.mode === 'full').filter((k) => k > 1)
  ctx.progress.plan(candidates.hashers.length * (budget.rounds + 1))
  const { plans, notes } = await warmUp(ctx, candidates.hashers, {
    capMs: budget.capMs,
    name: (c) => c,
    prepare: prepare(ctx, levels),
    announce: true,
  })
  // The event loop on one core, the pools (started by the warm-ups above) on every core.
  const pinned = pinMainThread()
  const measured = await candidateRounds(ctx, {
    candidates: plans,
    budget,
    name: (plan) => plan,
    measure: measureRound,
    // A plan's ratios are inside its own rounds (each burst beside a single hash), so it races alone.
    comparisons: (plan, results) => {
      const rounds = results.get(plan) ?? []
      return [
        ...(plan.control ? [controlRatio(rounds)] : []),
        ...plan.levels.map((k) => ratioAt(rounds, k)),
      ].map((ratio) => ({ ratio }))
    },
  }).finally(() => pinned?.release())
  const at = pinned?.last === undefined ? 'nowhere (one core, or no taskset)' : `to CPU ${pinned.last}`
  notes.push(`${threadpoolNote()}; ${ctx.cores} cores, the event loop pinned ${at}.`)
  return { rows: plans.flatMap((plan) => rowsOf(plan, measured.get(plan) ?? [], ctx.cores)), notes }
}

export const suite = defineSuite<ConcurrencyBudget>({
  name: 'concurrency',
  order: 40,
  description:
    'Hashes per second with K concurrent hashes (K = 1, cores, 4×cores; 32 in full mode), as the speed-up over one hash alone in the same round, against the limit min(K, cores): offloading strategies scale, main-thread ones do not.',
  baseline: 'one hash alone, same sequence',
  budget: {
    quick: { rounds: 5, capMs: 400, roundMs: 250, race: { maxRounds: 16, budgetMs: 8_000 } },
    full: {
      rounds: 10,
      capMs: Number.POSITIVE_INFINITY,
      roundMs: 1_500,
      race: { maxRounds: 40, budgetMs: 120_000 },
    },
  },
  view,
  method,
  run,
})
