import { consume } from './measure.js'

/** CPU milliseconds of this process (user + system, every thread): other processes' work is not in it. */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

export interface Timing {
  /** CPU time this process spent, its threadpool and worker threads included. */
  readonly cpuMs: number
  readonly wallMs: number
}

/**
 * One awaited call, timed by CPU and wall clock. On a shared machine other processes' work lands in
 * wall time only, so CPU time is what ratios use; wall time is kept for latency.
 */
export async function timeAsync(fn: () => Promise<unknown>): Promise<Timing> {
  const [c0, w0] = [cpuMs(), performance.now()]
  consume(await fn())
  return { cpuMs: cpuMs() - c0, wallMs: performance.now() - w0 }
}
