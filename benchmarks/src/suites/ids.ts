import { type SurvivorHeap, signAsSessionCookie, sparseSurvivorHeap } from '@authlab/conformance'
import { ID_CEILING as CEILING, ID_BASELINES } from '../discover/baselines.js'
import { type Measurement, measureSync } from '../measure/measure.js'
import { noiseFlags, ratioTo } from '../measure/ratio.js'
import type { IdCandidate, Suite, SuiteRow } from '../types.js'

/** IDs per timed call: a single ID (tens of ns) is below the timer's resolution. */
const BATCH = 1000
const KEEP_EVERY = 1000

function idsPerSecond(m: Measurement) {
  return { value: 1000 / m.mean, rme: m.rme }
}

export const idsSuite: Suite = {
  name: 'ids',
  description:
    'Session IDs per second of every generator, as ratios to crypto.randomUUID() and uid-safe measured in the same run, with the insecure unique-counter ceiling and the heap retained by sparse survivors.',
  async run(candidates, ctx) {
    const { budget, progress } = ctx
    const list: readonly IdCandidate[] = candidates.ids
    progress.plan(list.length * 2)
    const timed: { candidate: IdCandidate; m: Measurement }[] = []
    for (const candidate of list) {
      progress.step(`${candidate.label}: IDs/s`)
      const generate = candidate.create()
      const m = await measureSync(
        () => {
          let characters = 0
          for (let i = 0; i < BATCH; i++) characters += generate().length
          return characters
        },
        {
          timeMs: budget.idTimeMs,
          minSamples: 10,
          warmupMs: budget.idWarmupMs,
          warmupSamples: 5,
          batch: BATCH,
        },
      )
      timed.push({ candidate, m })
    }
    // Heap after all timing: the forced full GCs must not land inside a timing window.
    const heaps = new Map<string, { raw: SurvivorHeap; signed: SurvivorHeap }>()
    for (const { candidate } of timed) {
      progress.step(`${candidate.label}: retained heap`)
      const sample = { total: budget.heapIds, keepEvery: KEEP_EVERY }
      heaps.set(candidate.id, {
        raw: sparseSurvivorHeap(candidate.create(), sample),
        signed: sparseSurvivorHeap(candidate.create(), { ...sample, use: signAsSessionCookie }),
      })
    }
    const byId = new Map(timed.map((t) => [t.candidate.id, t]))
    const baselines = ID_BASELINES.flatMap((id) => {
      const t = byId.get(id)
      return t ? [{ label: t.candidate.label, figure: idsPerSecond(t.m) }] : []
    })
    const ceiling = byId.get(CEILING)
    const rows: SuiteRow[] = timed.map(({ candidate, m }) => {
      const figure = idsPerSecond(m)
      const heap = heaps.get(candidate.id)
      const flags = [...noiseFlags(m.rme, ctx.maxRme)]
      if (candidate.id === CEILING) flags.push('ceiling: INSECURE, bench-only')
      if (ID_BASELINES.includes(candidate.id)) flags.push('baseline')
      return {
        group: 'IDs/s',
        candidate: candidate.id,
        label: candidate.label,
        value: figure.value,
        unit: 'IDs/s',
        higherIsBetter: true,
        rme: m.rme,
        samples: m.samples,
        ratios: baselines.map((b) => ratioTo(b.label, figure, b.figure, true)),
        details: {
          'ns/ID': m.mean * 1e6,
          'p50 ns': m.p50 * 1e6,
          'p99 ns': m.p99 * 1e6,
          ...(ceiling ? { '% of ceiling': (100 * figure.value) / idsPerSecond(ceiling.m).value } : {}),
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
    return {
      rows,
      notes: [
        `Each sample times ${BATCH} consecutive IDs; ns/ID, p50 and p99 are per ID within those batches.`,
        `Retained heap: ${budget.heapIds.toLocaleString('en')} IDs generated, one in ${KEEP_EVERY} kept, after a full GC; "× standalone" compares with as many flat strings, as generated and after each survivor is HMAC-signed as a cookie (which flattens concatenated V8 strings in place; the conformance suite allows 2× after signing).`,
      ],
    }
  },
}
