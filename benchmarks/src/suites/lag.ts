import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import type { PasswordHasher } from '@authlab/core'
import { BENCH_PASSWORD, describeParams } from '../discover/settings.js'
import type { Budget, Suite, SuiteRow } from '../types.js'

/** The timer loop's period: 1 ms is Node's smallest, so a free loop completes about one tick per ms. */
const TICK_MS = 1
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
export async function measureLag(hasher: PasswordHasher, budget: Budget): Promise<LagFigures> {
  await hasher.hash(BENCH_PASSWORD) // warm-up: module init, thread-pool spin-up, JIT
  const histogram = monitorEventLoopDelay({ resolution: 1 })
  let ticks = 0
  const timer = setInterval(() => ticks++, TICK_MS)
  histogram.enable()
  const eluStart = performance.eventLoopUtilization()
  const started = performance.now()
  let hashes = 0
  try {
    while (hashes < budget.lagMinHashes || performance.now() - started < budget.lagTimeMs) {
      await hasher.hash(BENCH_PASSWORD)
      hashes++
      // Back to the event loop between hashes, as a server is between requests: overdue timers run,
      // so the delay recorded is what one hash costs the loop, not the whole back-to-back series.
      await new Promise((resolve) => setImmediate(resolve))
    }
  } finally {
    clearInterval(timer)
    histogram.disable()
  }
  const elapsed = performance.now() - started
  const utilization = performance.eventLoopUtilization(eluStart).utilization
  return {
    hashes,
    msPerHash: elapsed / hashes,
    ticksPerHash: ticks / hashes,
    maxDelayMs: histogram.max / NS_PER_MS,
    p99DelayMs: histogram.percentile(99) / NS_PER_MS,
    utilization,
  }
}

export const lagSuite: Suite = {
  name: 'lag',
  description:
    'Event-loop delay (max, p99), timer ticks completed per hash and event-loop utilization while each hasher runs hashes back to back at its defaults.',
  async run(candidates, ctx) {
    ctx.progress.plan(candidates.hashers.length)
    const rows: SuiteRow[] = []
    const notes: string[] = []
    for (const candidate of candidates.hashers) {
      ctx.progress.step(candidate.label)
      try {
        const hasher = candidate.create()
        const lag = await measureLag(hasher, ctx.budget)
        rows.push({
          group: 'event-loop delay while hashing',
          candidate: candidate.id,
          label: candidate.label,
          value: lag.maxDelayMs,
          unit: 'ms max delay',
          higherIsBetter: false,
          ratios: [],
          details: {
            'p99 delay ms': lag.p99DelayMs,
            'ticks/hash': lag.ticksPerHash,
            'ms/hash': lag.msPerHash,
            'ELU %': 100 * lag.utilization,
            hashes: lag.hashes,
            params: describeParams(hasher),
            'runs on': hasher.info.runsOn,
          },
          flags: lag.hashes < 5 ? [`only ${lag.hashes} hashes: one run, no spread`] : [],
        })
      } catch (error) {
        notes.push(`${candidate.id} failed: ${(error as Error).message}`)
      }
    }
    notes.push(
      `A ${TICK_MS} ms interval ticks during the hashes: a non-blocking hasher completes about (ms/hash ÷ ${TICK_MS}) ticks per hash, a blocking one about 1.`,
    )
    return { rows, notes }
  },
}
