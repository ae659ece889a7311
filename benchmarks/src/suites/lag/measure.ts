import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import type { PasswordHasher } from '@authlab/core'
import { BENCH_PASSWORD } from '../../discover/settings.js'
import type { RoundsBudget } from '../../harness/suite.js'

/** The lag suite: per round, each hasher hashes back to back for `timeMs` (at least `minHashes`). */
export interface LagBudget extends RoundsBudget {
  readonly timeMs: number
  readonly minHashes: number
  /** A hasher whose one warm call takes longer than this is not run (noted, not guessed). */
  readonly callCapMs: number
}

/** The timer loop's period: 1 ms is Node's smallest, so a free loop completes about one tick per ms. */
export const TICK_MS = 1
const NS_PER_MS = 1e6

export interface LagFigures {
  readonly hashes: number
  readonly msPerHash: number
  readonly ticksPerHash: number
  readonly maxDelayMs: number
  readonly p99DelayMs: number
  /** Event-loop utilization over the run, 0..1 (perf_hooks.eventLoopUtilization). */
  readonly utilization: number
}

/**
 * The usual demonstration that a pure-JavaScript hash blocks the event loop and a native one does not (a
 * timer keeps printing while hashes run: it stalls under bcryptjs and keeps ticking under bcrypt), made
 * measurable: hashes run back to back while a 1 ms interval counts ticks and monitorEventLoopDelay
 * records how late the loop was. A strategy that blocks the main thread shows few ticks per hash and
 * a max delay near the hash time; one that offloads keeps ticking.
 */
export async function measureLag(
  hasher: PasswordHasher,
  budget: Pick<LagBudget, 'minHashes' | 'timeMs'>,
): Promise<LagFigures> {
  const histogram = monitorEventLoopDelay({ resolution: 1 })
  histogram.enable()
  // The histogram records the gap between two of its own timer runs, so its first run only sets a
  // start: without one before the hashes, a single hash that holds the loop would be recorded as no delay.
  await new Promise((resolve) => setTimeout(resolve, 2 * TICK_MS))
  let ticks = 0
  const timer = setInterval(() => ticks++, TICK_MS)
  const eluStart = performance.eventLoopUtilization()
  const started = performance.now()
  let hashes = 0
  let elapsed = 0
  let utilization = 0
  try {
    try {
      while (hashes < budget.minHashes || performance.now() - started < budget.timeMs) {
        await hasher.hash(BENCH_PASSWORD)
        hashes++
        // Back to the event loop between hashes, as a server is between requests: overdue timers run,
        // so the delay recorded is what one hash costs the loop, not the whole back-to-back series.
        await new Promise((resolve) => setImmediate(resolve))
      }
      // A timers phase after the last hash: a setImmediate resumes in the check phase, before the next
      // timers phase, so without it the last hash's overdue tick (and its histogram delay) would be lost,
      // and a round of one blocking hash would count no tick at all.
      await new Promise((resolve) => setTimeout(resolve, 2 * TICK_MS))
    } finally {
      clearInterval(timer)
    }
    elapsed = performance.now() - started
    utilization = performance.eventLoopUtilization(eluStart).utilization
  } finally {
    histogram.disable()
  }
  return {
    hashes,
    msPerHash: elapsed / hashes,
    ticksPerHash: ticks / hashes,
    maxDelayMs: histogram.max / NS_PER_MS,
    p99DelayMs: histogram.percentile(99) / NS_PER_MS,
    utilization,
  }
}
