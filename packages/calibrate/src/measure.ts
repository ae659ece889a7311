import type { PasswordHasher } from '@authlab/core'

export interface Measurement {
  readonly params: Readonly<Record<string, number>>
  /** Per-hash latency at the requested concurrency, in milliseconds. */
  readonly medianMs: number
  readonly p99Ms: number
  readonly samples: number
}

export interface MeasureSettings {
  readonly concurrency: number
  readonly samples: number
  /** Milliseconds; injectable so the search can be tested without depending on this machine's speed. */
  readonly clock: () => number
}

/**
 * Hash latency as a login sees it under `concurrency` simultaneous logins: that many hashes in flight
 * at all times, each timed from its own start, so threadpool queueing counts. One round of
 * `concurrency` hashes first is discarded (lazy initialisation, JIT, first allocation of the memory).
 */
export async function measureHasher(
  hasher: PasswordHasher,
  params: Readonly<Record<string, number>>,
  { concurrency, samples, clock }: MeasureSettings,
): Promise<Measurement> {
  const password = 'calibration password'
  await Promise.all(Array.from({ length: concurrency }, () => hasher.hash(password)))
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
  }
}

/** Nearest-rank quantile of sorted values. */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number
}
