import { ID_CEILING as CEILING, ID_BASELINES } from '../discover/baselines.js'
import { roundsBeforeInterlude, runRounds } from '../measure/rounds.js'
import { median } from '../measure/stats.js'
import { CONTROL_FLAG, limitFlags, perRoundRatios, summarizeRatio } from '../measure/verdict.js'
import type { IdCandidate, Ratio, Suite, SuiteRow } from '../types.js'
import { type IdRound, measureIdsInChild } from './ids-measure.js'

const KEEP_EVERY = 1000
const CONTROL_SUFFIX = ' (A/A)'

/** The first baseline again, as a separate candidate in its own processes: it must read same. */
function controlOf(baseline: IdCandidate): IdCandidate {
  return { ...baseline, id: `${baseline.id}${CONTROL_SUFFIX}`, label: `${baseline.label} [A/A control]` }
}

const idsPerSecond = (rounds: readonly (IdRound | undefined)[]) =>
  rounds.map((r) => (r ? 1e9 / r.cpuNsPerId : undefined))
/** Each round's speed relative to the yardstick that ran beside it: what ratios are made of. */
const relativeSpeed = (rounds: readonly (IdRound | undefined)[]) => rounds.map((r) => r?.vsYardstick)

export const idsSuite: Suite = {
  name: 'ids',
  roundsAreProcesses: true,
  spreadsRounds: true,
  placement: 'one-core',
  description:
    'Session IDs per CPU-second of every generator, each candidate in its own process once per round, as per-round ratios to crypto.randomUUID() and the frameworks’ own defaults, with the flat-string ceiling, an A/A control and the heap retained by sparse survivors.',
  async run(candidates, ctx) {
    const { progress } = ctx
    const budget = ctx.budget.ids
    const primary = candidates.ids.find((c) => c.id === ID_BASELINES[0])
    const list = primary ? [...candidates.ids, controlOf(primary)] : [...candidates.ids]
    const notes: string[] = []
    // Why a candidate's rounds failed, for its row: a user's module may throw, exit or hang.
    const failures = new Map<string, string>()
    progress.plan(list.length * budget.rounds)
    const sourceOf = (candidate: IdCandidate) =>
      candidate.id.endsWith(CONTROL_SUFFIX) ? candidate.id.slice(0, -CONTROL_SUFFIX.length) : candidate.id
    const baselines = [...ID_BASELINES, CEILING]
    // The control is compared with the first baseline only: it is that baseline, measured again.
    const baselinesOf = (candidate: IdCandidate) =>
      candidate.id.endsWith(CONTROL_SUFFIX) ? baselines.slice(0, 1) : baselines
    const ratiosIn = (
      results: ReadonlyMap<IdCandidate, readonly (IdRound | undefined)[]>,
      candidate: IdCandidate,
    ): Ratio[] => {
      const values = relativeSpeed(results.get(candidate) ?? [])
      return baselinesOf(candidate).flatMap((id) => {
        const base = list.find((c) => c.id === id)
        if (!base || base === candidate) return []
        return [
          summarizeRatio(
            { label: base.label, against: base.id },
            perRoundRatios(values, relativeSpeed(results.get(base) ?? []), true),
          ),
        ]
      })
    }
    const measured = await runRounds({
      candidates: list,
      budget,
      seed: ctx.seed,
      measure: (candidate, round) => {
        progress.step(`round ${round + 1} · ${candidate.label}`)
        // The first round's process also measures the retained heap, after its timing: a small heap of
        // its own collects in milliseconds, where this process's large one takes seconds per candidate.
        const heap =
          round === 0 && !candidate.id.endsWith(CONTROL_SUFFIX)
            ? {
                total: budget.heap.ids,
                keepEvery: KEEP_EVERY,
                repeats: budget.heap.repeats,
                warmup: budget.heap.warmup,
              }
            : undefined
        return measureIdsInChild(sourceOf(candidate), candidate.source, budget.sampling, heap)
      },
      onError: (candidate, error) => {
        notes.push(`${candidate.id}: a round failed (${(error as Error).message})`)
        failures.set(candidate.id, (error as Error).message)
      },
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
    const heaps = new Map(
      candidates.ids.flatMap((c) => {
        const heap = measured.get(c)?.[0]?.heap
        return heap ? [[c.id, heap] as const] : []
      }),
    )
    const rows: SuiteRow[] = list.map((candidate) => {
      const rounds = measured.get(candidate) ?? []
      const ratios = ratiosIn(measured, candidate)
      const clean = idsPerSecond(rounds).filter((v): v is number => v !== undefined)
      const heap = heaps.get(candidate.id)
      const isControl = candidate.id.endsWith(CONTROL_SUFFIX)
      const ceiling = ratios.find((q) => q.baseline === list.find((c) => c.id === CEILING)?.label)
      const flags: string[] = []
      if (candidate.id === CEILING) flags.push('ceiling: INSECURE, no randomness, bench-only')
      if (ID_BASELINES.includes(candidate.id)) flags.push('baseline')
      if (isControl) flags.push(CONTROL_FLAG)
      if (candidate.id !== CEILING) flags.push(...limitFlags(ceiling))
      const failure = failures.get(candidate.id)
      if (failure !== undefined) flags.push(`failed: ${failure}`)
      return {
        group: 'IDs/s',
        key: { setting: 'defaults', operation: 'generate' },
        candidate: candidate.id,
        label: candidate.label,
        value: median(clean),
        unit: 'IDs/s',
        higherIsBetter: true,
        rounds: clean,
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
      }
    })
    return { rows, notes }
  },
  method: ({ ids: budget }) =>
    [
      `${budget.rounds} rounds at least (when other suites follow, the first ${roundsBeforeInterlude(budget.rounds)} before them and the rest after, so the rounds span the run); in each, every candidate runs in a fresh process (random order per round) beside the yardstick crypto.randomUUID(), each from its own loop: ${budget.sampling.warmupMs} ms CPU of warm-up each that also sizes the batches to ≥ ${budget.sampling.sampleMs} ms, then ${budget.sampling.samples} adjacent pairs of batches, in CPU time (user + system, so other processes' load stays out). IDs/s is the median of the candidate's batches; the round's relative speed is the median over pairs of candidate ÷ yardstick speed, so both sides of every pair ran at the same machine speed.`,
      `A round's value is the candidate's speed relative to the yardstick in its own process, so each round is one process: the interval resamples processes.${budget.race ? ` Rounds go on, up to ${budget.race.maxRounds} and ${budget.race.budgetMs / 1000} s, for candidates with an undecided ratio.` : ''}`,
      `Retained heap, in the first round's process of each candidate after its timing: ${budget.heap.ids.toLocaleString('en')} IDs generated, one in ${KEEP_EVERY} kept, after a full GC (the least of ${budget.heap.repeats} measurement${budget.heap.repeats === 1 ? '' : 's'}); "× standalone" compares with as many flat strings, as generated and after each survivor is HMAC-signed as a cookie (which flattens concatenated V8 strings in place; the conformance suite allows 2× after signing).`,
    ].join(' '),
}
