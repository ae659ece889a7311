import { performance } from 'node:perf_hooks'

/** What the main thread's event loop did while one piece of work ran. */
export interface EventLoopSample {
  /** Wall time of the work. */
  readonly durationMs: number
  /** Longest stretch a 1 ms timer was held up (a drift probe): how long other requests would have waited. */
  readonly maxDelayMs: number
  /** Event-loop utilization over the work (perf_hooks): 1 = the loop never idled, 0 = it only waited. */
  readonly utilization: number
}

const PROBE_MS = 1

/**
 * Runs `work` while a 1 ms interval timer measures how late it fires. A strategy that computes on the
 * main thread (even in chunks) keeps the loop busy; one that hands the work to the libuv threadpool or a
 * worker leaves it idle and the timer on time. Exported for the bench app's "max event-loop delay" column.
 */
export async function sampleEventLoop(work: () => Promise<unknown>): Promise<EventLoopSample> {
  let last = performance.now()
  let maxDelayMs = 0
  const timer = setInterval(() => {
    const now = performance.now()
    maxDelayMs = Math.max(maxDelayMs, now - last - PROBE_MS)
    last = now
  }, PROBE_MS)
  try {
    // Let the probe settle so start-up jitter is not counted.
    await new Promise((resolve) => setTimeout(resolve, 20))
    maxDelayMs = 0
    last = performance.now()
    const before = performance.eventLoopUtilization()
    const start = performance.now()
    await work()
    const end = performance.now()
    const utilization = performance.eventLoopUtilization(before).utilization
    // A fully synchronous computation blocks the timer until it ends: count that last gap too.
    maxDelayMs = Math.max(maxDelayMs, end - last - PROBE_MS)
    return { durationMs: end - start, maxDelayMs, utilization }
  } finally {
    clearInterval(timer)
  }
}

/**
 * `sampleEventLoop` over `work` repeated back to back until the sample lasts `minMs` (at most `maxCalls`
 * calls): a judgement needs enough time to see the loop busy or idle, and a momentarily faster CPU must
 * not make one call too short to judge. Returns the sample and how many calls it took.
 */
export async function sampleRepeated(
  work: () => Promise<unknown>,
  minMs: number,
  maxCalls: number,
): Promise<EventLoopSample & { calls: number }> {
  let calls = 0
  const sample = await sampleEventLoop(async () => {
    const start = performance.now()
    do {
      await work()
      calls += 1
    } while (calls < maxCalls && performance.now() - start < minMs)
  })
  return { ...sample, calls }
}
