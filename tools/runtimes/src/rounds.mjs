// The measuring loop every runtime runs, with nothing but setTimeout, performance.now and
// crypto: interleaved rounds, all candidates per round in the order the caller gives, each timed in batches
// long enough to dwarf the clock's resolution (browsers coarsen performance.now to 0.1 ms or more).
// It returns raw per-round rates; statistics are computed by the caller on Node, once, for every
// runtime alike.
import { collectGarbage, loopLagDuring, runtimeInfo } from './portable.mjs'

/**
 * @typedef {{ id: string, run: () => unknown }} Candidate  `run` may return a promise; it is awaited.
 *   A synchronous result is not: an `await` per call costs a microtask turn, which would be timed too.
 * @typedef {{ rounds: number, minBatchMs: number, lagProbe?: boolean, orders?: string[][] }} RoundOptions
 */

/**
 * The candidates of one round in the order the caller chose (the bench's one seeded rule,
 * benchmarks/src/measure/rounds.ts), keeping only the ids present here; without orders, as listed.
 */
function orderOf(/** @type {Candidate[]} */ candidates, /** @type {string[] | undefined} */ order) {
  if (!order) return candidates
  const byId = new Map(candidates.map((c) => [c.id, c]))
  return order.flatMap((id) => byId.get(id) ?? [])
}

/** Calls `run` `n` times, awaiting only the results that are promises. */
async function repeat(/** @type {Candidate} */ candidate, /** @type {number} */ n) {
  for (let i = 0; i < n; i++) {
    const result = /** @type {any} */ (candidate.run())
    if (typeof result?.then === 'function') await result
  }
}

/** Calls per batch so that one batch lasts at least `minBatchMs`, found by doubling. */
async function batchSize(/** @type {Candidate} */ candidate, /** @type {number} */ minBatchMs) {
  let n = 1
  for (;;) {
    const start = performance.now()
    await repeat(candidate, n)
    if (performance.now() - start >= minBatchMs || n >= 2 ** 24) return n
    n *= 2
  }
}

/**
 * @param {Candidate[]} candidates
 * @param {RoundOptions} options
 * @returns {Promise<{ runtime: { name: string, version: string }, gc: ReturnType<typeof collectGarbage>,
 *   rates: Record<string, number[]>, lagMs: Record<string, number>, opMs: Record<string, number> }>}
 */
export async function measureRounds(candidates, { rounds, minBatchMs, lagProbe = false, orders }) {
  /** @type {Record<string, number>} */
  const sizes = {}
  for (const c of candidates) sizes[c.id] = await batchSize(c, minBatchMs)
  /** @type {Record<string, number[]>} */
  const rates = Object.fromEntries(candidates.map((c) => [c.id, []]))
  let gc = collectGarbage()
  for (let round = 0; round < rounds; round++) {
    for (const c of orderOf(candidates, orders?.[round])) {
      // Each candidate starts on a clean heap where the runtime allows it, so garbage left by the
      // previous one is not collected on this one's time.
      gc = collectGarbage()
      const n = /** @type {number} */ (sizes[c.id])
      // The batch runs in chunks of the calibrated size until the clock has seen at least
      // `minBatchMs`: a candidate that got faster after calibration (a warmed JIT, a coarsened timer
      // that rounded the calibration up) still gets a batch the clock resolves, never a zero duration.
      let calls = 0
      let ms = 0
      const start = performance.now()
      do {
        await repeat(c, n)
        calls += n
        ms = performance.now() - start
      } while (ms <= 0 || ms < minBatchMs)
      rates[c.id]?.push((calls * 1000) / ms)
    }
  }
  /** @type {Record<string, number>} */
  const lagMs = {}
  /** @type {Record<string, number>} */
  const opMs = {}
  if (lagProbe) {
    // Whether "async" really runs off the main thread here: the worst timer lateness during one call,
    // against the call's own duration. Measured per runtime, never assumed.
    for (const c of candidates) {
      const probe = await loopLagDuring(async () => c.run())
      lagMs[c.id] = probe.maxLagMs
      opMs[c.id] = probe.ms
    }
  }
  return { runtime: runtimeInfo(), gc, rates, lagMs, opMs }
}
