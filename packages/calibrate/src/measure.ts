import type { PasswordHasher } from '@authlab/core'

export interface Measurement {
  readonly params: Readonly<Record<string, number>>
  /** Per-hash latency at `concurrency` hashes in flight, in milliseconds. */
  readonly medianMs: number
  readonly p99Ms: number
  readonly samples: number
  /** Hashes kept in flight while it was measured. */
  readonly concurrency: number
  /** Wall time the measurement took, warm-up included, in milliseconds. */
  readonly durationMs: number
}

export interface MeasureSettings {
  readonly concurrency: number
  readonly samples: number
  /** Milliseconds; injectable so the search can be tested without depending on this machine's speed. */
  readonly clock: () => number
  /** Clock reading the timed hashes must end by; past it, they are not started (OutOfTime). */
  readonly deadline: number
}

/** The timed hashes would end past the run's deadline, predicted from the warm-up round just measured. */
export class OutOfTime extends Error {
  constructor(readonly predictedMs: number) {
    super(`the timed hashes would take about ${Math.round(predictedMs)} ms`)
  }
}

/**
 * Hash latency as a login sees it under `concurrency` simultaneous logins: that many hashes in flight
 * at all times, each timed from its own start, so threadpool queueing counts. One round of
 * `concurrency` hashes first is discarded (lazy initialisation, JIT, first allocation of the memory);
 * its wall time predicts the timed hashes' (samples ÷ concurrency rounds), which are not started when
 * they would end past the deadline.
 */
export async function measureHasher(
  hasher: PasswordHasher,
  params: Readonly<Record<string, number>>,
  { concurrency, samples, clock, deadline }: MeasureSettings,
): Promise<Measurement> {
  const password = 'calibration password'
  const began = clock()
  await Promise.all(Array.from({ length: concurrency }, () => hasher.hash(password)))
  const predictedMs = ((clock() - began) * samples) / concurrency
  if (clock() + predictedMs > deadline) throw new OutOfTime(predictedMs)
  const latencies: number[] = []
  let started = 0
  async function lane(): Promise<void> {
    while (started < samples) {
      started++
      const start = clock()
      await hasher.hash(password)
      latencies.push(clock() - start)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, lane))
  latencies.sort((a, b) => a - b)
  return {
    params,
    medianMs: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    samples: latencies.length,
    concurrency,
    durationMs: clock() - began,
  }
}

/** Nearest-rank quantile of sorted values. */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number
}
