import autocannon from 'autocannon'
import { processCpuMs } from './process-cpu.js'

export interface LoadOptions {
  readonly path: string
  readonly connections: number
  /** The number of requests to send. */
  readonly amount: number
  readonly method?: 'GET' | 'POST'
  readonly body?: string
  /** Headers besides the JSON content type a body gets (a browser's Origin, for a server that checks it). */
  readonly headers?: Readonly<Record<string, string>>
  /**
   * The server's process id: its CPU time (every thread) is read at the start and at the last answer,
   * so work after it (a request sent beyond `amount`, which the server still serves) stays out of the
   * window, as it stays out of the rate. Read only at the last `connections` answers.
   */
  readonly serverPid?: number
}

export interface LoadResult {
  /** Completed requests ÷ (last response − start), both read here (see `run`). */
  readonly requestsPerSec: number
  readonly total: number
  /** autocannon's errors + timeouts + non-2xx answers: a round with any is marked, not averaged in. */
  readonly failures: number
  /** performance.now() when the load started and when its last response arrived. */
  readonly startedAt: number
  readonly lastResponseAt: number
  /** The server's CPU ms from the start to the last answer, with `serverPid` (undefined without /proc). */
  readonly serverCpuMs?: number
}

function optionsFor(url: string, options: LoadOptions): autocannon.Options {
  return {
    url: new URL(options.path, url).href,
    connections: options.connections,
    amount: options.amount,
    method: options.method ?? 'GET',
    body: options.body,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    // autocannon only notices it is done on its sampling tick (1 s by default), which left up to a second
    // of idle server at the end of every run; 100 ms keeps the tail short. Rates do not depend on it.
    sampleInt: 100,
  }
}

/**
 * One autocannon run through its programmatic API (no pipelining: one request per connection at a time).
 * Rates use the first and last moments read here, not autocannon's `duration` (whole seconds, and it
 * includes the idle tail until its next sampling tick, which rounds a short run's rate down).
 */
export function load(url: string, options: LoadOptions): Promise<LoadResult> {
  const pid = options.serverPid
  const cpuAtStart = pid === undefined ? undefined : processCpuMs(pid)
  const startedAt = performance.now()
  let lastResponseAt = startedAt
  let [answers, cpuAtLast] = [0, undefined as number | undefined]
  return new Promise<LoadResult>((resolve, reject) => {
    const instance = autocannon(optionsFor(url, options), (error, result) => {
      if (error) return reject(error)
      const total = result.requests.total
      resolve({
        requestsPerSec: total / ((lastResponseAt - startedAt) / 1000),
        total,
        failures: result.errors + result.timeouts + result.non2xx,
        startedAt,
        lastResponseAt,
        ...(cpuAtStart !== undefined && cpuAtLast !== undefined
          ? { serverCpuMs: cpuAtLast - cpuAtStart }
          : {}),
      })
    })
    instance.on('response', () => {
      lastResponseAt = performance.now()
      answers++
      // /proc is read near the end only: one read per answer would be the load generator's own work.
      if (pid !== undefined && answers > options.amount - options.connections) cpuAtLast = processCpuMs(pid)
    })
  })
}
