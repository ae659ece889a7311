/**
 * Entry point of one measuring process of the ids suite: `ids-child.js <{ id, source, sampling }>`
 * rebuilds that one candidate, samples it beside the yardstick (see `sampleIds`) and prints one JSON line, an `IdRound`.
 */
import { rebuildIdCandidate } from '../discover/candidates.js'
import type { CandidateSource, IdSampling } from '../types.js'
import { idBatch, idSink, SLOW_ENV, sampleIds, yardstick } from './ids-measure.js'

const request = JSON.parse(process.argv[2] ?? '{}') as {
  id: string
  source: CandidateSource
  sampling: IdSampling
}
try {
  const candidate = await rebuildIdCandidate(request.id, request.source)
  const batch = idBatch(candidate.create(), process.env[SLOW_ENV] === request.id)
  const round = sampleIds(batch, idBatch(yardstick, false), request.sampling)
  process.stdout.write(`${JSON.stringify({ ...round, sink: idSink() > 0 })}\n`)
  process.exit(0)
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exit(1)
}
