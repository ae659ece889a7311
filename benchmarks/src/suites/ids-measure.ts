import { fileURLToPath } from 'node:url'
import { askChild } from '../measure/isolated.js'
import { cpuMs } from '../measure/sample.js'
import { median } from '../measure/stats.js'
import type { CandidateSource, IdSampling } from '../types.js'

/** One round of one candidate: median CPU (and wall) nanoseconds per ID over its samples. */
export interface IdRound {
  readonly cpuNsPerId: number
  readonly wallNsPerId: number
  readonly batch: number
}

/**
 * Test-only knob: `AUTHLAB_BENCH_SLOW=<candidate id>` makes the harness call that candidate's generator
 * 10 % more often per batch than it counts, so `compare` can be shown to find a 10 % slowdown. It lives
 * in the harness, never in a published package.
 */
export const SLOW_ENV = 'AUTHLAB_BENCH_SLOW'
const SLOW_EXTRA = 0.1

/** A batch of `n` counted calls (plus the knob's uncounted 10 % when `slow`); returns characters made. */
export function idBatch(generate: () => string, slow: boolean): (n: number) => number {
  return (n) => {
    let characters = 0
    for (let i = 0; i < n; i++) characters += generate().length
    if (slow) for (let i = Math.round(n * SLOW_EXTRA); i > 0; i--) characters += generate().length
    return characters
  }
}

let sink = 0

/** The sink the batches write to: reading it keeps the JIT from proving the generated IDs unused. */
export function idSink(): number {
  return sink
}

/**
 * Samples a generator in this process: warm-up (which also sizes the batch), then `samples` batches,
 * each timed by CPU and wall clock. CPU time is the figure: on a shared machine another process's work
 * lands in wall time, not in ours.
 */
export function sampleIds(batch: (n: number) => number, sampling: IdSampling): IdRound {
  let n = 256
  const warmupStart = cpuMs()
  while (cpuMs() - warmupStart < sampling.warmupMs) {
    const start = cpuMs()
    sink += batch(n)
    if (cpuMs() - start < sampling.sampleMs) n *= 2
  }
  const cpu: number[] = []
  const wall: number[] = []
  for (let s = 0; s < sampling.samples; s++) {
    const [c0, w0] = [cpuMs(), performance.now()]
    sink += batch(n)
    const [c1, w1] = [cpuMs(), performance.now()]
    cpu.push(((c1 - c0) * 1e6) / n)
    wall.push(((w1 - w0) * 1e6) / n)
  }
  return { cpuNsPerId: median(cpu), wallNsPerId: median(wall), batch: n }
}

// Always the built entry (benchmarks/dist), also when this module runs from src/ under the test runner.
const CHILD = fileURLToPath(new URL('../../dist/suites/ids-child.js', import.meta.url))

/**
 * One round of one candidate in a fresh process: no other generator has shaped its call sites' type
 * feedback, left garbage in its heap or warmed a shared cache (randomUUID's batch) before it.
 */
export function measureIdsInChild(
  id: string,
  source: CandidateSource,
  sampling: IdSampling,
): Promise<IdRound> {
  return askChild<IdRound>(CHILD, [JSON.stringify({ id, source, sampling })])
}
