import autocannon from 'autocannon'

export interface LoadOptions {
  readonly path: string
  readonly connections: number
  /** Seconds to run; or a fixed number of requests (`amount`), for warm-ups. */
  readonly durationSec?: number
  readonly amount?: number
  readonly method?: 'GET' | 'POST'
  readonly body?: string
}

export interface LoadResult {
  readonly requestsPerSec: number
  readonly total: number
  /** autocannon's errors + timeouts + non-2xx answers: a round with any is marked, not averaged in. */
  readonly failures: number
  readonly p99Ms: number
}

/** One autocannon run through its programmatic API (no pipelining: one request per connection at a time). */
export async function load(url: string, options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: new URL(options.path, url).href,
    connections: options.connections,
    duration: options.durationSec ?? 10,
    amount: options.amount,
    method: options.method ?? 'GET',
    body: options.body,
    headers: options.body === undefined ? {} : { 'content-type': 'application/json' },
  })
  const total = result.requests.total
  return {
    requestsPerSec: total / result.duration,
    total,
    failures: result.errors + result.timeouts + result.non2xx,
    p99Ms: result.latency.p99,
  }
}
