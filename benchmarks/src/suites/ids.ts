import { ID_CEILING as CEILING, ID_BASELINES } from '../discover/baselines.js'
import { roundsBeforeInterlude } from '../measure/rounds.js'
import { median } from '../measure/stats.js'
import { CONTROL_FLAG, limitFlags, perRoundRatios } from '../measure/verdict.js'
import type { IdCandidate, Ratio, Suite } from '../types.js'
import { CONTROL_SUFFIX, candidateRounds, controlOf, medianRow, raceText, ratioTo } from './common.js'
import { type IdRound, measureIdsInChild } from './ids-measure.js'

const KEEP_EVERY = 1000

type IdRounds = readonly (IdRound | undefined)[]
/** Each round's speed relative to the yardstick that ran beside it: what ratios are made of. */
const relativeSpeed = (rounds: IdRounds) => rounds.map((r) => r?.vsYardstick)
const isControl = (candidate: IdCandidate) => candidate.id.endsWith(CONTROL_SUFFIX)

export const idsSuite: Suite = {
  name: 'ids',
  roundsAreProcesses: true,
  spreadsRounds: true,
  placement: 'one-core',
  description:
    'Session IDs per CPU-second of every generator, each candidate in its own process once per round, as per-round ratios to crypto.randomUUID() and the frameworks’ own defaults, with the flat-string ceiling, an A/A control and the heap retained by sparse survivors.',
  async run(candidates, ctx) {
    const budget = ctx.budget.ids
    const primary = candidates.ids.find((c) => c.id === ID_BASELINES[0])
    const list = primary ? [...candidates.ids, controlOf(primary)] : [...candidates.ids]
    const notes: string[] = []
    // Why a candidate's rounds failed, for its row: a user's module may throw, exit or hang.
    const failures = new Map<string, string>()
    ctx.progress.plan(list.length * budget.rounds)
    // The control is compared with the first baseline only: it is that baseline, measured again.
    const baselinesOf = (candidate: IdCandidate) =>
      isControl(candidate) ? ID_BASELINES.slice(0, 1) : [...ID_BASELINES, CEILING]
    const ratiosIn = (results: ReadonlyMap<IdCandidate, IdRounds>, candidate: IdCandidate): Ratio[] =>
      baselinesOf(candidate).flatMap((id) => {
        const base = list.find((c) => c.id === id)
        if (!base || base === candidate) return []
        const own = relativeSpeed(results.get(candidate) ?? [])
        return [ratioTo(base, perRoundRatios(own, relativeSpeed(results.get(base) ?? []), true))]
      })
    const measured = await candidateRounds(ctx, notes, {
      candidates: list,
      budget,
      name: (candidate) => candidate,
      measure: (candidate, round) => {
        // The first round's process also measures the retained heap, after its timing: a small heap of
        // its own collects in milliseconds, where this process's large one takes seconds per candidate.
        const heap =
          round === 0 && !isControl(candidate)
            ? {
                total: budget.heap.ids,
                keepEvery: KEEP_EVERY,
                repeats: budget.heap.repeats,
                warmup: budget.heap.warmup,
              }
            : undefined
        const id = isControl(candidate) ? candidate.id.slice(0, -CONTROL_SUFFIX.length) : candidate.id
        return measureIdsInChild(id, candidate.source, budget.sampling, heap)
      },
      onError: (candidate, error) => failures.set(candidate.id, (error as Error).message),
      // Every candidate with an undecided ratio runs again, with the baselines of those ratios. A
      // candidate whose round failed (threw, hung, exited) is not given more chances to.
      comparisons: (candidate, results) =>
        failures.has(candidate.id)
          ? []
          : ratiosIn(results, candidate).map((ratio) => ({
              ratio,
              partners: list.filter((c) => c.id === ratio.against && !failures.has(c.id)),
            })),
      interlude: ctx.interlude,
    })
    const rows = list.map((candidate) => {
      const rounds = measured.get(candidate) ?? []
      const ratios = ratiosIn(measured, candidate)
      const heap = isControl(candidate) ? undefined : rounds[0]?.heap
      const ceiling = ratios.find((q) => q.baseline === list.find((c) => c.id === CEILING)?.label)
      const failure = failures.get(candidate.id)
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
        flags: [
          ...(candidate.id === CEILING ? ['ceiling: INSECURE, no randomness, bench-only'] : []),
          ...(ID_BASELINES.includes(candidate.id) ? ['baseline'] : []),
          ...(isControl(candidate) ? [CONTROL_FLAG] : []),
          ...(candidate.id !== CEILING ? limitFlags(ceiling) : []),
          ...(failure !== undefined ? [`failed: ${failure}`] : []),
        ],
      })
    })
    return { rows, notes }
  },
  method: ({ ids: budget }) =>
    [
      `${budget.rounds} rounds at least (when other suites follow, the first ${roundsBeforeInterlude(budget.rounds)} before them and the rest after, so the rounds span the run); in each, every candidate runs in a fresh process (random order per round) beside the yardstick crypto.randomUUID(), each from its own loop: ${budget.sampling.warmupMs} ms CPU of warm-up each that also sizes the batches to ≥ ${budget.sampling.sampleMs} ms, then ${budget.sampling.samples} adjacent pairs of batches, in CPU time (user + system, so other processes' load stays out). IDs/s is the median of the candidate's batches; the round's relative speed is the median over pairs of candidate ÷ yardstick speed, so both sides of every pair ran at the same machine speed.`,
      `A round's value is the candidate's speed relative to the yardstick in its own process, so each round is one process: the interval resamples processes.${raceText(budget, 'candidates')}`,
      `Retained heap, in the first round's process of each candidate after its timing: ${budget.heap.ids.toLocaleString('en')} IDs generated, one in ${KEEP_EVERY} kept, after a full GC (the least of ${budget.heap.repeats} measurement${budget.heap.repeats === 1 ? '' : 's'}); "× standalone" compares with as many flat strings, as generated and after each survivor is HMAC-signed as a cookie (which flattens concatenated V8 strings in place; the conformance suite allows 2× after signing).`,
    ].join(' '),
}
