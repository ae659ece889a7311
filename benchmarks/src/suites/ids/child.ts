/**
 * Entry point of one measuring process of the ids suite: `ids-child.js <{ id, source, sampling }>`
 * rebuilds that candidate, samples it beside the yardstick and prints one JSON line, an `IdRound`.
 */
import { checkIdGenerator } from '@authlab/core'
import { rebuildIdCandidate } from '../../discover/candidates.js'
import type { CandidateSource } from '../../model/candidates.js'
import { type IdRound, type IdSampling, idBatch, idSink, SLOW_ENV, sampleIds, yardstick } from './measure.js'

const request = JSON.parse(process.argv[2] ?? '{}') as {
  id: string
  source: CandidateSource
  sampling: IdSampling
  /** Also measure the heap sparse survivors retain, after the timing: see `measureIdsInChild`. */
  heap?: { total: number; keepEvery: number; repeats: number; warmup: number }
}
try {
  const candidate = await rebuildIdCandidate(request.id, request.source)
  // Output off its declared length or alphabet is refused before timing; a repeating one is not,
  // since the bench's flat-string ceiling repeats by design (it is only ever timed).
  const generate = checkIdGenerator(candidate.create(), { distinct: false })
  const batch = idBatch(generate, process.env[SLOW_ENV] === request.id)
  const round = sampleIds(batch, idBatch(yardstick, false), request.sampling)
  // After the timing, so its forced collections never land in a timing window; loaded only here,
  // so the other rounds' processes start without it.
  let heap: IdRound['heap']
  if (request.heap) {
    const { signAsSessionCookie, sparseSurvivorHeap } = await import('@authlab/conformance')
    heap = {
      raw: sparseSurvivorHeap(candidate.create(), request.heap),
      signed: sparseSurvivorHeap(candidate.create(), { ...request.heap, use: signAsSessionCookie }),
    }
  }
  process.stdout.write(`${JSON.stringify({ ...round, ...(heap ? { heap } : {}), sink: idSink() > 0 })}\n`)
  process.exit(0)
} catch (error) {
  // The reason, as the answer: the parent records it on the candidate's row.
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  process.stdout.write(`${JSON.stringify({ error: reason.slice(0, 500) })}\n`)
  process.exit(1)
}
