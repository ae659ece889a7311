import { fileURLToPath } from 'node:url'
import type { SurvivorHeap } from '@authlab/conformance'
import { askChild } from '../../harness/child.js'
import { cpuMs } from '../../harness/sample.js'
import type { RoundsBudget } from '../../harness/suite.js'
import type { CandidateSource } from '../../model/candidates.js'
import { median } from '../../stats/stats.js'

/** How one round of one ids candidate is sampled, inside its own process. */
export interface IdSampling {
  /** CPU time spent generating before sampling: JIT tiers, pools filled, caches warm. */
  readonly warmupMs: number
  /** CPU time per sample, the batch doubled until it takes this long: short, so a pair sees one machine speed. */
  readonly sampleMs: number
  /** Pairs of batches, candidate and yardstick. */
  readonly samples: number
  /** How long one round's process may run before it is killed (default: see `roundTimeLimitMs`). */
  readonly roundLimitMs?: number
}

/** The ids suite: every candidate once per round, each in its own process. */
export interface IdsBudget extends RoundsBudget {
  readonly sampling: IdSampling
  /** The retained-heap measurement: IDs generated (one in `keepEvery` kept), repeats (the least is kept), warm-up IDs. */
  readonly heap: { readonly ids: number; readonly repeats: number; readonly warmup: number }
}

/** One round of one candidate, measured in pairs with the yardstick in the same process. */
export interface IdRound {
  /** Median CPU (and wall) nanoseconds per ID of the candidate over its samples. */
  readonly cpuNsPerId: number
  readonly wallNsPerId: number
  readonly batch: number
  /**
   * The candidate's speed as a multiple of the yardstick's, the median over adjacent pairs of
   * samples. Ratios between candidates divide these, so each side is compared with what ran beside it.
   */
  readonly vsYardstick: number
  /** The heap sparse survivors retain, raw and HMAC-signed, when the round was asked to measure it. */
  readonly heap?: { readonly raw: SurvivorHeap; readonly signed: SurvivorHeap }
}

/**
 * Test-only knob: `AUTHLAB_BENCH_SLOW=<candidate id>` calls that generator 10 % more often per batch than
 * it counts, so `compare` can be shown to find a 10 % slowdown; it lives in the harness, never in a package.
 */
export const SLOW_ENV = 'AUTHLAB_BENCH_SLOW'
const SLOW_EXTRA = 0.1

/** The yardstick every candidate is paired with: crypto.randomUUID(), the ids suite's first baseline. */
export const yardstick = (): string => crypto.randomUUID()

/**
 * A batch of `n` counted calls (plus the knob's uncounted 10 % when `slow`); returns characters made.
 * Each batch is compiled from source of its own, so the candidate's and the yardstick's loops never
 * share a call site: one loop's type feedback (which function it calls, what it returns) cannot make
 * the other's call polymorphic.
 */
export function idBatch(generate: () => string, slow: boolean): (n: number) => number {
  const compile = new Function(
    'generate',
    'extra',
    `return function batch(n) {
      let characters = 0
      for (let i = 0; i < n; i++) characters += generate().length
      for (let i = Math.round(n * extra); i > 0; i--) characters += generate().length
      return characters
    }`,
  ) as (generate: () => string, extra: number) => (n: number) => number
  return compile(generate, slow ? SLOW_EXTRA : 0)
}

let sink = 0

/** The sink the batches write to: reading it keeps the JIT from proving the generated IDs unused. */
export function idSink(): number {
  return sink
}

/** Doubles `n` through the warm-up until one batch takes at least `sampleMs` of CPU. */
function warmAndSize(batch: (n: number) => number, { warmupMs, sampleMs }: IdSampling): number {
  let n = 256
  const warmupStart = cpuMs()
  while (cpuMs() - warmupStart < warmupMs) {
    const start = cpuMs()
    sink += batch(n)
    if (cpuMs() - start < sampleMs) n *= 2
  }
  return n
}

/** CPU and wall nanoseconds per ID of one batch of `n`. */
function timeBatch(batch: (n: number) => number, n: number): { cpu: number; wall: number } {
  const [c0, w0] = [cpuMs(), performance.now()]
  sink += batch(n)
  const [c1, w1] = [cpuMs(), performance.now()]
  return { cpu: ((c1 - c0) * 1e6) / n, wall: ((w1 - w0) * 1e6) / n }
}

/**
 * Samples a generator beside the yardstick: warm-up of each (which sizes its batch), then `samples`
 * pairs of short batches, the order flipped every pair. CPU time is the figure (another process's work
 * lands in wall time, not in ours); pairing cancels a virtual CPU's drift, which CPU time cannot see.
 */
export function sampleIds(
  batch: (n: number) => number,
  yardstickBatch: (n: number) => number,
  sampling: IdSampling,
): IdRound {
  const n = warmAndSize(batch, sampling)
  const m = warmAndSize(yardstickBatch, sampling)
  const cpu: number[] = []
  const wall: number[] = []
  const relative: number[] = []
  for (let s = 0; s < sampling.samples; s++) {
    const first = s % 2 === 0
    const y0 = first ? timeBatch(yardstickBatch, m) : undefined
    const c = timeBatch(batch, n)
    const y = y0 ?? timeBatch(yardstickBatch, m)
    cpu.push(c.cpu)
    wall.push(c.wall)
    relative.push(y.cpu / c.cpu)
  }
  return { cpuNsPerId: median(cpu), wallNsPerId: median(wall), batch: n, vsYardstick: median(relative) }
}

// Always the built entry (benchmarks/dist), also when this module runs from src/ under the test runner.
const CHILD = fileURLToPath(new URL('../../../dist/suites/ids/child.js', import.meta.url))

/**
 * One round of one candidate in a fresh process: no other generator has shaped its type feedback, left
 * garbage in its heap or warmed a shared cache; only the yardstick runs beside it, from its own loop.
 */
export async function measureIdsInChild(
  id: string,
  source: CandidateSource,
  sampling: IdSampling,
  heap?: { total: number; keepEvery: number; repeats: number; warmup: number },
): Promise<IdRound> {
  const answer = await askChild<IdRound | { error: string }>(
    CHILD,
    [JSON.stringify({ id, source, sampling, ...(heap ? { heap } : {}) })],
    // An explicit limit is the caller's whole allowance; the default one leaves room for the heap.
    roundTimeLimitMs(sampling) + (heap && sampling.roundLimitMs === undefined ? HEAP_LIMIT_MS : 0),
  )
  if ('error' in answer) throw new Error(answer.error)
  return answer
}

/** Extra time a round that also measures the retained heap may take (a few full collections, 6 × its IDs). */
const HEAP_LIMIT_MS = 60_000

/**
 * How long one round may take before its process is killed: ten times the CPU it plans to spend (two
 * warm-ups, two batches per pair), plus 30 s for starting Node and loading the candidate on a loaded
 * machine. A generator that never returns costs that, not the whole run.
 */
export function roundTimeLimitMs({ warmupMs, sampleMs, samples, roundLimitMs }: IdSampling): number {
  return roundLimitMs ?? 30_000 + 10 * (2 * warmupMs + 2 * samples * sampleMs)
}
