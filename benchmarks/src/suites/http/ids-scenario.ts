import type { Framework } from '@authlab/servers'
import { HTTP_CEILING as CEILING, ID_BASELINES } from '../../discover/baselines.js'
import type { HttpBudget } from '../../measure/budget.js'
import { shuffledRounds } from '../../measure/rounds.js'
import { MIN_ROUNDS, perRoundRatios, summarizeRatio } from '../../measure/verdict.js'
import type { IdCandidate, Ratio, SuiteContext, SuiteRow } from '../../types.js'
import { load } from './load.js'
import { finite, type RoundSample, roundFlags, spreadFields, summarizeRounds } from './rounds.js'
import { type Placement, type ServerProcess, withServers } from './servers.js'

/** The goal for a production generator: at least 98 % of the ceiling's req/s in both frameworks. */
const GOAL = 0.98

/** Decided only when the whole 95 % interval of the median per-round ratio lies on one side of the goal. */
function verdict({ low, high, rounds }: Ratio): string {
  if (rounds.length < MIN_ROUNDS) return `undecided (n = ${rounds.length})`
  if (low >= GOAL) return 'yes'
  if (high < GOAL) return 'no'
  return 'undecided at this precision'
}

/**
 * One fresh server alone on its core: a discarded warm-up (JIT, connections, the store's first
 * allocations), then the measured round.
 */
async function measure(server: ServerProcess, budget: HttpBudget): Promise<RoundSample> {
  await load(server.url, { path: '/', connections: 50, durationSec: budget.warmupSec })
  const result = await load(server.url, { path: '/', connections: 50, durationSec: budget.idsSec })
  return { value: result.requestsPerSec, failures: result.failures }
}

/**
 * ids-in-framework: GET / without a cookie, so every request generates an ID and stores a session.
 * Every measurement gets a fresh server that is the only one on its core: each request adds a session to
 * the in-memory store, and a store grown over earlier rounds (through its GC, presumably), not the
 * generator, made the biggest difference between rounds (1-s rounds of one reused fastify server ranged
 * 21–38 k req/s); servers kept alive beside the measured one widened the spread too (their background GC
 * and compilation, presumably; not profiled).
 */
export async function idsInFramework(
  framework: Framework,
  ids: readonly IdCandidate[],
  hasher: string,
  budget: HttpBudget,
  placement: Placement,
  ctx: SuiteContext,
): Promise<SuiteRow[]> {
  const samples = new Map<IdCandidate, RoundSample[]>(ids.map((c) => [c, []]))
  // Per round: each candidate's req/s, so ratios pair rounds by index.
  const perRound: Map<IdCandidate, number | undefined>[] = []
  for (const order of shuffledRounds(ids, budget.rounds, ctx.seed)) {
    const round: RoundSample[] = []
    for (const candidate of order) {
      ctx.progress.step(`${framework} ids · ${candidate.label}`)
      const spec = { framework, generator: candidate.id, hasher }
      round.push(
        await withServers([spec], placement.serverCpu, ([server]) =>
          measure(server as ServerProcess, budget),
        ),
      )
    }
    const values = new Map<IdCandidate, number | undefined>()
    for (const [i, c] of order.entries()) {
      const sample = round[i] as RoundSample
      samples.get(c)?.push(sample)
      values.set(c, sample.failures === 0 ? sample.value : undefined)
    }
    perRound.push(values)
  }
  const reqPerSec = (c: IdCandidate | undefined) => perRound.map((r) => (c ? r.get(c) : undefined))
  /** Ratios to the ceiling and to each framework's default that ran, in the same rounds. */
  const ratiosOf = (candidate: IdCandidate): Ratio[] =>
    [CEILING, ...ID_BASELINES.filter((id) => id !== 'ref:randomUUID')].flatMap((id) => {
      const base = ids.find((c) => c.id === id)
      if (!base || (base === candidate && id !== CEILING)) return []
      return [summarizeRatio(base.label, perRoundRatios(reqPerSec(candidate), reqPerSec(base), true))]
    })
  return ids.map((candidate) => {
    const summary = summarizeRounds(samples.get(candidate) ?? [])
    const ratios = ratiosOf(candidate)
    const ratio = ratios[0] as Ratio
    return {
      group: `ids-in-framework · ${framework}`,
      candidate: candidate.id,
      label: candidate.label,
      value: finite(summary.median),
      unit: 'req/s',
      higherIsBetter: true,
      samples: summary.cleanRounds,
      ratios,
      details: {
        [`≥ ${GOAL * 100} % of ceiling`]: candidate.id === CEILING ? 'is the ceiling' : verdict(ratio),
        ...spreadFields(summary),
      },
      flags: [
        ...(candidate.id === CEILING ? ['ceiling (INSECURE, bench-only)'] : []),
        ...roundFlags(summary),
      ],
    }
  })
}
