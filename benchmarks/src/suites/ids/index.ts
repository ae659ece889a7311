import { ID_CEILING as CEILING, ID_BASELINES } from '../../discover/baselines.js'
import { candidateRounds } from '../../harness/rounds.js'
import { CONTROL_SUFFIX, controlOf, medianRow, ratioTo } from '../../harness/rows.js'
import { defineSuite, type SuiteContext } from '../../harness/suite.js'
import type { Candidates, IdCandidate } from '../../model/candidates.js'
import type { Flag, Ratio } from '../../model/types.js'
import { median } from '../../stats/stats.js'
import { limitFlags, perRoundRatios } from '../../stats/verdict.js'
import { type IdRound, type IdsBudget, measureIdsInChild } from './measure.js'
import { KEEP_EVERY, method } from './method.js'
import { portable } from './runtimes.js'
import { view } from './view.js'

type IdRounds = readonly (IdRound | undefined)[]
/** Each round's speed relative to the yardstick that ran beside it: what ratios are made of. */
const relativeSpeed = (rounds: IdRounds) => rounds.map((r) => r?.vsYardstick)
const isControl = (candidate: IdCandidate) => candidate.id.endsWith(CONTROL_SUFFIX)

/** A candidate's ratios to each baseline and the ceiling; the control's to the first baseline only. */
function ratiosIn(
  list: readonly IdCandidate[],
  results: ReadonlyMap<IdCandidate, IdRounds>,
  candidate: IdCandidate,
): Ratio[] {
  const bases = isControl(candidate) ? ID_BASELINES.slice(0, 1) : [...ID_BASELINES, CEILING]
  return bases.flatMap((id) => {
    const base = list.find((c) => c.id === id)
    if (!base || base === candidate) return []
    const own = relativeSpeed(results.get(candidate) ?? [])
    return [ratioTo(base, perRoundRatios(own, relativeSpeed(results.get(base) ?? []), true))]
  })
}

/** The first round's process also measures the retained heap, after its timing (not the control's). */
function heapPlan(budget: IdsBudget, candidate: IdCandidate, round: number) {
  if (round !== 0 || isControl(candidate)) return undefined
  return {
    total: budget.heap.ids,
    keepEvery: KEEP_EVERY,
    repeats: budget.heap.repeats,
    warmup: budget.heap.warmup,
  }
}

function rowOf(candidate: IdCandidate, rounds: IdRounds, ratios: Ratio[], failure: string | undefined) {
  const heap = isControl(candidate) ? undefined : rounds[0]?.heap
  const ceiling = ratios.find((q) => q.against === CEILING)
  const flags: Flag[] = [
    ...(candidate.id === CEILING ? [{ kind: 'ceiling' } as const] : []),
    ...(ID_BASELINES.includes(candidate.id) ? [{ kind: 'baseline' } as const] : []),
    ...(isControl(candidate) ? [{ kind: 'control' } as const] : []),
    ...(candidate.id !== CEILING ? limitFlags(ceiling) : []),
    ...(failure !== undefined ? [{ kind: 'failed', reason: failure } as const] : []),
  ]
  return medianRow({
    group: 'IDs/s',
    key: { setting: 'defaults', operation: 'generate' },
    candidate: candidate.id,
    label: candidate.label,
    perRound: rounds.map((r) => (r ? 1e9 / r.cpuNsPerId : undefined)),
    unit: 'IDs/s',
    higherIsBetter: true,
    ratios,
    details: {
      'ns/ID (CPU)': median(rounds.flatMap((r) => (r ? [r.cpuNsPerId] : []))),
      'ns/ID (wall)': median(rounds.flatMap((r) => (r ? [r.wallNsPerId] : []))),
      ...(heap
        ? {
            'heap B/survivor': heap.raw.retained / heap.raw.survivors,
            'heap × standalone': heap.raw.retained / heap.raw.standalone,
            'heap × standalone, signed': heap.signed.retained / heap.signed.standalone,
          }
        : {}),
    },
    flags,
  })
}

async function run(candidates: Candidates, ctx: SuiteContext<IdsBudget>) {
  const { budget } = ctx
  const primary = candidates.ids.find((c) => c.id === ID_BASELINES[0])
  const list = primary ? [...candidates.ids, controlOf(primary)] : [...candidates.ids]
  // Why a candidate's rounds failed, for its row: a user's module may throw, exit or hang.
  const failures = new Map<string, string>()
  ctx.progress.plan(list.length * budget.rounds)
  const measured = await candidateRounds(ctx, {
    candidates: list,
    budget,
    name: (candidate) => candidate,
    measure: (candidate, round) => {
      const id = isControl(candidate) ? candidate.id.slice(0, -CONTROL_SUFFIX.length) : candidate.id
      return measureIdsInChild(id, candidate.source, budget.sampling, heapPlan(budget, candidate, round))
    },
    onError: (candidate, error) => failures.set(candidate.id, (error as Error).message),
    // Every candidate with an undecided ratio runs again, with the baselines of those ratios. A
    // candidate whose round failed (threw, hung, exited) is not given more chances to.
    comparisons: (candidate, results) =>
      failures.has(candidate.id)
        ? []
        : ratiosIn(list, results, candidate).map((ratio) => ({
            ratio,
            partners: list.filter((c) => c.id === ratio.against && !failures.has(c.id)),
          })),
    interlude: ctx.interlude,
  })
  const rows = list.map((c) =>
    rowOf(c, measured.get(c) ?? [], ratiosIn(list, measured, c), failures.get(c.id)),
  )
  return { rows, notes: [] }
}

export const suite = defineSuite<IdsBudget>({
  name: 'ids',
  order: 10,
  description:
    'Session IDs per CPU-second of every generator, each candidate in its own process once per round, as per-round ratios to crypto.randomUUID() and the frameworks’ own defaults, with the flat-string ceiling, an A/A control and the heap retained by sparse survivors.',
  baseline: "`crypto.randomUUID()`, the frameworks' defaults, the ceiling",
  budget: {
    quick: {
      rounds: 5,
      sampling: { warmupMs: 40, sampleMs: 2, samples: 24 },
      // One measurement after a short warm-up: the measuring process has just timed the generator, so it
      // is already compiled; repeats cost seconds per slow generator in a run meant to last minutes.
      heap: { ids: 50_000, repeats: 1, warmup: 5_000 },
      race: { maxRounds: 16, budgetMs: 5_000 },
    },
    full: {
      rounds: 20,
      sampling: { warmupMs: 300, sampleMs: 5, samples: 60 },
      heap: { ids: 1_000_000, repeats: 3, warmup: 100_000 },
      race: { maxRounds: 40, budgetMs: 120_000 },
    },
  },
  roundsAreProcesses: true,
  spreadsRounds: true,
  placement: 'one-core',
  portable,
  view,
  method,
  run,
})
