import { median, shuffledRounds } from '@authlab/benchmarks/harness'
import { Pool } from 'undici'

/** One window of closed-loop load on one server. */
export interface WindowResult {
  /** Completed requests ÷ (last response − start) of the window. */
  readonly requestsPerSec: number
  readonly completed: number
  /** Errors and non-2xx answers: a window with any marks its round. */
  readonly failures: number
  /** Each completed request's time from send to the end of its body, in ms (empty unless asked for). */
  readonly latenciesMs: readonly number[]
}

export interface LoadSource {
  /** `connections` request loops, one request at a time each, for `seconds`, with these headers. */
  window(seconds: number, headers?: Readonly<Record<string, string>>): Promise<WindowResult>
  close(): Promise<void>
}

/**
 * Closed-loop GET load on kept-alive connections, opened once per server and reused by every window:
 * a load tool that connects per run (autocannon) spends a short window mostly connecting.
 */
export function openLoad(
  url: string,
  path: string,
  connections: number,
  options: { recordLatencies?: boolean } = {},
): LoadSource {
  const pool = new Pool(url, { connections, pipelining: 1, keepAliveTimeout: 60_000 })
  return {
    async window(seconds, headers = {}) {
      const started = performance.now()
      const deadline = started + seconds * 1000
      let [completed, failures, last] = [0, 0, started]
      const latenciesMs: number[] = []
      const loop = async () => {
        while (performance.now() < deadline) {
          const sent = performance.now()
          try {
            const { statusCode, body } = await pool.request({ path, method: 'GET', headers })
            await body.dump()
            if (statusCode >= 200 && statusCode < 300) {
              completed++
              if (options.recordLatencies) latenciesMs.push(performance.now() - sent)
            } else failures++
          } catch {
            failures++
          }
          last = performance.now()
        }
      }
      await Promise.all(Array.from({ length: connections }, loop))
      const elapsed = (last - started) / 1000
      return { requestsPerSec: elapsed > 0 ? completed / elapsed : 0, completed, failures, latenciesMs }
    },
    close: () => pool.close(),
  }
}

/**
 * One round's ratio of two candidates measured in alternating windows: the median over cycles of own ÷
 * base rates of the same cycle (a window with failures, undefined, drops its cycle); undefined when no
 * cycle had both.
 */
export function cycleRatio(
  own: readonly (number | undefined)[],
  base: readonly (number | undefined)[],
): number | undefined {
  const cycles = own.flatMap((v, i) => {
    const b = base[i]
    return v !== undefined && b !== undefined ? [v / b] : []
  })
  return cycles.length > 0 ? median(cycles) : undefined
}

/** Every candidate's windows of one round, cycle by cycle. */
export interface CycleWindows<C> {
  /** Window rates in cycle order; undefined marks a window with failures (see cycleRatio). */
  readonly rates: ReadonlyMap<C, readonly (number | undefined)[]>
  /** Every recorded latency of the candidate's windows (empty unless the load records them). */
  readonly latenciesMs: ReadonlyMap<C, readonly number[]>
}

/**
 * One round of alternating windows: `cycles` cycles of one window per candidate, in a fresh seeded
 * order each cycle (so no candidate always follows the same one), as the same-cycle ratios need.
 */
export async function alternatingWindows<C>(
  candidates: readonly C[],
  cycles: number,
  seed: number,
  round: number,
  windowOf: (candidate: C) => Promise<WindowResult>,
): Promise<CycleWindows<C>> {
  const rates = new Map<C, (number | undefined)[]>(candidates.map((c) => [c, []]))
  const latenciesMs = new Map<C, number[]>(candidates.map((c) => [c, []]))
  for (const order of shuffledRounds(candidates, cycles, seed + 7919 * (round + 1))) {
    for (const candidate of order) {
      const w = await windowOf(candidate)
      rates.get(candidate)?.push(w.failures === 0 && w.requestsPerSec > 0 ? w.requestsPerSec : undefined)
      latenciesMs.get(candidate)?.push(...w.latenciesMs)
    }
  }
  return { rates, latenciesMs }
}
