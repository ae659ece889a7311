import { Agent, request } from 'node:http'
import { quantile } from '@authlab/benchmarks/harness'

/**
 * An open-loop health probe: GET `path` at a fixed rate, each request sent on schedule whether or not the
 * earlier ones were answered (one keep-alive socket per request in flight), each latency counted from
 * when the request was *due*.
 *
 * A closed-loop client sends one request per stall and thousands while the server is free, so its p99
 * stays near the idle round trip while the loop is blocked — coordinated omission (Gil Tene, "How NOT to
 * measure latency"; HdrHistogram's recordValueWithExpectedInterval) — and, back to back, it keeps the
 * server's loop runnable, taking the pinned core from the libuv threads. At a fixed low rate the probe
 * costs a few per cent of the core.
 */
export interface ProbeSample {
  /** performance.now() when the request was due. */
  readonly dueAt: number
  /** Due time to the end of the answer, in ms; undefined when the request failed. */
  readonly latencyMs: number | undefined
}

export interface ProbeLatency {
  /** p99 of the latencies of the requests due in the window (a failed request counts as the slowest). */
  readonly p99Ms: number
  readonly maxMs: number
  /** Requests due in the window. */
  readonly sent: number
  readonly failures: number
}

/** Nearest-rank percentile of the window's latencies; failures rank above every answer. */
export function windowLatency(samples: readonly ProbeSample[], from: number, to: number): ProbeLatency {
  if (!(to > from)) throw new RangeError(`empty window: from ${from} to ${to}`)
  const due = samples.filter((s) => s.dueAt >= from && s.dueAt <= to)
  const failures = due.filter((s) => s.latencyMs === undefined).length
  const latencies = due.map((s) => s.latencyMs ?? Number.POSITIVE_INFINITY)
  const answered = latencies.filter(Number.isFinite)
  return {
    p99Ms: quantile(latencies, 0.99),
    maxMs: answered.length > 0 ? Math.max(...answered) : Number.NaN,
    sent: due.length,
    failures,
  }
}

/** A request still unanswered this long after it was due counts as failed. */
const TIMEOUT_MS = 10_000

/**
 * Starts probing `url` + `path` at `perSecond` requests per second; `finish(from, to)` stops sending,
 * waits for the requests still in flight, and reads the latency of those due between `from` and `to`.
 */
export function startProbe(url: string, path: string, perSecond: number) {
  const agent = new Agent({ keepAlive: true })
  const target = new URL(path, url)
  const intervalMs = 1000 / perSecond
  const samples: ProbeSample[] = []
  const inFlight = new Set<Promise<void>>()
  const started = performance.now()
  let sent = 0
  let timer: NodeJS.Timeout | undefined

  const send = (dueAt: number) => {
    const done = new Promise<void>((resolve) => {
      const finish = (ok: boolean) => {
        samples.push({ dueAt, latencyMs: ok ? performance.now() - dueAt : undefined })
        resolve()
      }
      const req = request(target, { agent, timeout: TIMEOUT_MS }, (res) => {
        res.resume()
        res.once('end', () => finish(res.statusCode === 200))
        res.once('error', () => finish(false))
      })
      req.once('timeout', () => req.destroy(new Error('timeout')))
      req.once('error', () => finish(false))
      req.end()
    })
    inFlight.add(done)
    void done.then(() => inFlight.delete(done))
  }
  // Every tick sends each request that has come due, so a late timer (this process is busy too) delays
  // the sending but not the due times the latencies are counted from.
  const tick = () => {
    const now = performance.now()
    while (started + sent * intervalMs <= now) send(started + sent++ * intervalMs)
    timer = setTimeout(tick, Math.max(0, started + sent * intervalMs - performance.now()))
  }
  tick()

  return {
    async finish(from: number, to: number): Promise<ProbeLatency> {
      clearTimeout(timer)
      await Promise.all(inFlight)
      agent.destroy()
      return windowLatency(samples, from, to)
    },
  }
}
