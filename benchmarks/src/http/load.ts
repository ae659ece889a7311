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

function optionsFor(url: string, options: LoadOptions): autocannon.Options {
  return {
    url: new URL(options.path, url).href,
    connections: options.connections,
    duration: options.durationSec ?? 10,
    amount: options.amount,
    method: options.method ?? 'GET',
    body: options.body,
    headers: options.body === undefined ? {} : { 'content-type': 'application/json' },
  }
}

/** One autocannon run through its programmatic API (no pipelining: one request per connection at a time). */
export async function load(url: string, options: LoadOptions): Promise<LoadResult> {
  const started = performance.now()
  const result = await autocannon(optionsFor(url, options))
  return toLoadResult(result, (performance.now() - started) / 1000)
}

/**
 * A load that runs until `finish()`: the GET /health probe that lasts exactly as long as the logins it
 * watches (autocannon's callback form returns an instance with `stop()`).
 */
export function startLoad(
  url: string,
  options: Omit<LoadOptions, 'durationSec' | 'amount'>,
): { finish(): Promise<LoadResult> } {
  let settle: (result: Promise<LoadResult>) => void = () => {}
  const done = new Promise<LoadResult>((resolve) => {
    settle = resolve
  })
  const started = performance.now()
  const instance = autocannon({ ...optionsFor(url, options), duration: 3600 }, (error, result) =>
    settle(
      error
        ? Promise.reject(error)
        : Promise.resolve(toLoadResult(result, (performance.now() - started) / 1000)),
    ),
  )
  return {
    finish() {
      instance.stop()
      return done
    },
  }
}

/**
 * Rates use the wall time of the run measured here: autocannon's `duration` is whole seconds, which made a
 * 22-login round of 2.4 s read as exactly 11 logins/s.
 */
function toLoadResult(result: autocannon.Result, elapsedSec: number): LoadResult {
  const total = result.requests.total
  return {
    requestsPerSec: total / elapsedSec,
    total,
    failures: result.errors + result.timeouts + result.non2xx,
    p99Ms: result.latency.p99,
  }
}
