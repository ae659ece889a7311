import { type SurvivorHeap, signAsSessionCookie, sparseSurvivorHeap } from '@authlab/conformance'
import { ID_CEILING as CEILING, ID_BASELINES } from '../discover/baselines.js'
import { limitFlags, noiseFloorPct, perRoundRatios, runRounds, summarizeRatio } from '../measure/rounds.js'
import { median } from '../measure/stats.js'
import type { IdCandidate, Ratio, Suite, SuiteRow } from '../types.js'
import { type IdRound, measureIdsInChild } from './ids-measure.js'

const KEEP_EVERY = 1000
const CONTROL_SUFFIX = ' (A/A)'

/** The first baseline again, as a separate candidate in its own processes: the suite's noise floor. */
function controlOf(baseline: IdCandidate): IdCandidate {
  return { ...baseline, id: `${baseline.id}${CONTROL_SUFFIX}`, label: `${baseline.label} [A/A control]` }
}

const idsPerSecond = (rounds: readonly (IdRound | undefined)[]) =>
  rounds.map((r) => (r ? 1e9 / r.cpuNsPerId : undefined))
/** Each round's speed relative to the yardstick that ran beside it: what ratios are made of. */
const relativeSpeed = (rounds: readonly (IdRound | undefined)[]) => rounds.map((r) => r?.vsYardstick)

export const idsSuite: Suite = {
  name: 'ids',
  description:
    'Session IDs per CPU-second of every generator, each candidate in its own process once per round, as per-round ratios to crypto.randomUUID() and the frameworks’ own defaults, with the flat-string ceiling, an A/A control and the heap retained by sparse survivors.',
  async run(candidates, ctx) {
    const { budget, progress } = ctx
    const primary = candidates.ids.find((c) => c.id === ID_BASELINES[0])
    const list = primary ? [...candidates.ids, controlOf(primary)] : [...candidates.ids]
    const notes: string[] = []
    // Why a candidate's rounds failed, for its row: a user's module may throw, exit or hang.
    const failures = new Map<string, string>()
    progress.plan(list.length * budget.idRounds + candidates.ids.length)
    const measured = await runRounds(
      list,
      budget.idRounds,
      ctx.seed,
      (candidate, round) => {
        progress.step(`round ${round + 1}/${budget.idRounds} · ${candidate.label}`)
        const id = candidate.id.endsWith(CONTROL_SUFFIX)
          ? candidate.id.slice(0, -CONTROL_SUFFIX.length)
          : candidate.id
        return measureIdsInChild(id, candidate.source, budget.idSampling)
      },
      (candidate, error) => {
        notes.push(`${candidate.id}: a round failed (${(error as Error).message})`)
        failures.set(candidate.id, (error as Error).message)
      },
    )
    // Heap after all timing, in this process: the forced full GCs must not land inside a timing window.
    const heaps = new Map<string, { raw: SurvivorHeap; signed: SurvivorHeap }>()
    for (const candidate of candidates.ids) {
      progress.step(`${candidate.label}: retained heap`)
      // A user's generator is called only in the measuring processes, where a failure costs its own row.
      if (candidate.source.kind === 'file') continue
      const sample = { total: budget.heapIds, keepEvery: KEEP_EVERY }
      heaps.set(candidate.id, {
        raw: sparseSurvivorHeap(candidate.create(), sample),
        signed: sparseSurvivorHeap(candidate.create(), { ...sample, use: signAsSessionCookie }),
      })
    }
    const relative = new Map(list.map((c) => [c.id, relativeSpeed(measured.get(c) ?? [])]))
    const control = primary && relative.get(`${primary.id}${CONTROL_SUFFIX}`)
    const floor = control
      ? noiseFloorPct(
          summarizeRatio(primary.label, perRoundRatios(control, relative.get(primary.id) ?? [], true)),
        )
      : undefined
    // The control is judged by its own interval only: judged against the floor it sets, it could never fail.
    const ratioTo = (id: string, values: readonly (number | undefined)[], isControl: boolean): Ratio[] => {
      const base = list.find((c) => c.id === id)
      const baseValues = relative.get(id)
      if (!base || !baseValues) return []
      return [
        summarizeRatio(base.label, perRoundRatios(values, baseValues, true), isControl ? undefined : floor),
      ]
    }
    const rows: SuiteRow[] = list.map((candidate) => {
      const rounds = measured.get(candidate) ?? []
      const values = relative.get(candidate.id) ?? []
      const clean = idsPerSecond(rounds).filter((v): v is number => v !== undefined)
      const heap = heaps.get(candidate.id)
      const isControl = candidate.id.endsWith(CONTROL_SUFFIX)
      const ceiling = ratioTo(CEILING, values, isControl)[0]
      const flags: string[] = []
      if (candidate.id === CEILING) flags.push('ceiling: INSECURE, no randomness, bench-only')
      if (ID_BASELINES.includes(candidate.id)) flags.push('baseline')
      if (isControl) flags.push('A/A control')
      if (candidate.id !== CEILING) flags.push(...limitFlags(ceiling))
      const failure = failures.get(candidate.id)
      if (failure !== undefined) flags.push(`failed: ${failure}`)
      return {
        group: 'IDs/s',
        candidate: candidate.id,
        label: candidate.label,
        value: median(clean),
        unit: 'IDs/s',
        higherIsBetter: true,
        rounds: clean,
        ratios: [...ID_BASELINES, CEILING].flatMap((id) => ratioTo(id, values, isControl)),
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
    notes.push(
      `${budget.idRounds} rounds; in each, every candidate runs in a fresh process (random order per round) beside the yardstick crypto.randomUUID(), each from its own loop: ${budget.idSampling.warmupMs} ms CPU of warm-up each that also sizes the batches to ≥ ${budget.idSampling.sampleMs} ms, then ${budget.idSampling.samples} adjacent pairs of batches, in CPU time (user + system, so other processes' load stays out). IDs/s is the median of the candidate's batches; the round's relative speed is the median over pairs of candidate ÷ yardstick speed, so both sides of every pair ran at the same machine speed.`,
      `Ratios: the median of per-round ratios (candidate's relative speed ÷ baseline's, same round) with a 95 % bootstrap interval; "no difference" when the interval covers 1 or the distance from 1 is within the A/A control's noise floor${floor === undefined ? '' : ` (±${floor.toFixed(1)} % in this run)`}.`,
      `Retained heap: ${budget.heapIds.toLocaleString('en')} IDs generated, one in ${KEEP_EVERY} kept, after a full GC; "× standalone" compares with as many flat strings, as generated and after each survivor is HMAC-signed as a cookie (which flattens concatenated V8 strings in place; the conformance suite allows 2× after signing).`,
    )
    return { rows, notes }
  },
}
