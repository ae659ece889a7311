/**
 * The latency a steady stream of requests would see, read from a closed-loop probe.
 *
 * A closed-loop client (one connection, next request when the last answer arrives) sends one request per
 * stall of the server and thousands while it is free, so its per-request p99 stays near the idle round
 * trip even when the event loop is blocked most of the time — coordinated omission (Gil Tene, "How NOT to
 * measure latency"; HdrHistogram's recordValueWithExpectedInterval). The probe's answer times still show
 * every stall: a request arriving at a random instant t waits until the server next answered, then needs
 * one round trip of its own. With the gaps g between consecutive answers covering the window, the wait is
 * uniform on (0, g] inside a gap of length g, so P(wait > x) = Σ max(0, g − x) / Σ g — exact, no sampling.
 */
export interface ProbeLatency {
  /** p99 of (time until the next answer + the shortest round trip) over instants uniform in the window. */
  readonly p99Ms: number
  /** The longest time the server gave the probe no answer. */
  readonly maxStallMs: number
  /** Answers that arrived in the window. */
  readonly answered: number
}

/** Gaps between `from`, each answer after it, up to the first answer at or after `to` (or `to` itself). */
export function answerGaps(answeredAt: readonly number[], from: number, to: number): number[] {
  if (!(to > from)) throw new RangeError(`empty window: from ${from} to ${to}`)
  const gaps: number[] = []
  let previous = from
  for (const at of answeredAt) {
    if (at <= from) continue
    gaps.push(at - previous)
    previous = at
    if (at >= to) return gaps
  }
  gaps.push(to - previous)
  return gaps
}

/** x with P(wait > x) = 1 − p, wait uniform on (0, g] in each gap g weighted by g. */
export function waitPercentile(gaps: readonly number[], p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`percentile must lie in (0, 1), got ${p}`)
  const sorted = gaps.filter((g) => g > 0).sort((a, b) => b - a)
  const total = sorted.reduce((sum, g) => sum + g, 0)
  const tail = (1 - p) * total
  // With the k longest gaps above x: Σ_{i≤k} (g_i − x) = tail, so x = (S_k − tail) / k, valid when it
  // falls between the k-th and (k+1)-th longest gap.
  let sum = 0
  for (let k = 1; k <= sorted.length; k++) {
    sum += sorted[k - 1] as number
    const x = (sum - tail) / k
    if (x >= (sorted[k] ?? 0)) return x
  }
  return 0
}

export function probeLatency(answeredAt: readonly number[], from: number, to: number): ProbeLatency {
  const gaps = answerGaps(answeredAt, from, to)
  const roundTrip = roundTripOf(answeredAt)
  return {
    p99Ms: waitPercentile(gaps, 0.99) + roundTrip,
    maxStallMs: Math.max(...gaps),
    answered: answeredAt.filter((at) => at > from && at <= to).length,
  }
}

/** The shortest time between two answers: one request's round trip when the server was free. */
function roundTripOf(answeredAt: readonly number[]): number {
  let shortest = Number.POSITIVE_INFINITY
  for (let i = 1; i < answeredAt.length; i++)
    shortest = Math.min(shortest, (answeredAt[i] as number) - (answeredAt[i - 1] as number))
  return Number.isFinite(shortest) ? shortest : 0
}
