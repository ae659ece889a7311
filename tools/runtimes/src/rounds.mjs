// The measuring loop every runtime runs, with nothing but setTimeout, performance.now and
// crypto: interleaved rounds, all candidates per round in the order the caller gives, each timed in batches
// long enough to dwarf the clock's resolution (browsers coarsen performance.now to 0.1 ms or more;
// workerd's batches are timed by its process's CPU time instead: portable.mjs, batchClock).
// It returns raw per-round rates; statistics are computed by the caller on Node, once, for every
// runtime alike.
import { batchClock, collectGarbage, loopLagDuring, processCpuMs, runtimeInfo } from './portable.mjs'

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

/**
 * The clock's reading: a number from the wall clock, read synchronously so that no microtask turn
 * enters the timed stretch; a promise from workerd's CPU clock, which the caller awaits.
 * @param {import('./portable.mjs').BatchClock} clock
 * @returns {number | Promise<number>}
 */
const read = (clock) => clock.now()

/** Calls per batch so that one batch lasts at least `minBatchMs`, found by doubling. */
async function batchSize(
  /** @type {Candidate} */ candidate,
  /** @type {number} */ minBatchMs,
  /** @type {import('./portable.mjs').BatchClock} */ clock,
) {
  let n = 1
  for (;;) {
    let start = read(clock)
    if (typeof start !== 'number') start = await start
    await repeat(candidate, n)
    let end = read(clock)
    if (typeof end !== 'number') end = await end
    if (end - start >= minBatchMs || n >= 2 ** 24) return n
    n *= 2
  }
}

/**
 * @param {Candidate[]} candidates
 * @param {RoundOptions} options
 * @returns {Promise<{ runtime: { name: string, version: string }, gc: ReturnType<typeof collectGarbage>,
 *   rates: Record<string, number[]>, lagMs: Record<string, number>, opMs: Record<string, number>,
 *   clock: { name: string, source?: string, resolutionMs?: number, minBatchMs: number },
 *   perCall: { wallMs: Record<string, number[]>, cpuMs?: Record<string, number[]> } }>}
 *   `rates` are calls per second of the batch clock: wall-clock seconds, or, where `clock.name` is
 *   'process-cpu' (workerd), seconds of the runtime process's CPU time. `perCall` holds each round's
 *   batch again as milliseconds per call: of the wall clock, and of the process's CPU time where the
 *   runtime can read it (workerd's batch clock; `process.cpuUsage()` in Node, Bun and Deno; never in
 *   browsers), so a figure per call needs no second run on another clock.
 */
export async function measureRounds(candidates, { rounds, minBatchMs: asked, lagProbe = false, orders }) {
  const clock = batchClock()
  const minBatchMs = Math.max(asked, clock.minBatchMs)
  /** @type {Record<string, number>} */
  const sizes = {}
  for (const c of candidates) sizes[c.id] = await batchSize(c, minBatchMs, clock)
  /** @type {Record<string, number[]>} */
  const rates = Object.fromEntries(candidates.map((c) => [c.id, []]))
  const cpuNow = clock.name === 'process-cpu' ? undefined : processCpuMs()
  const perCall = {
    wallMs: /** @type {Record<string, number[]>} */ (Object.fromEntries(candidates.map((c) => [c.id, []]))),
    cpuMs:
      clock.name === 'process-cpu' || cpuNow
        ? /** @type {Record<string, number[]>} */ (Object.fromEntries(candidates.map((c) => [c.id, []])))
        : undefined,
  }
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
      let start = read(clock)
      if (typeof start !== 'number') start = await start
      const [wall0, cpu0] = [performance.now(), cpuNow?.()]
      do {
        await repeat(c, n)
        calls += n
        let now = read(clock)
        if (typeof now !== 'number') now = await now
        ms = now - start
      } while (ms <= 0 || ms < minBatchMs)
      const [wall1, cpu1] = [performance.now(), cpuNow?.()]
      rates[c.id]?.push((calls * 1000) / ms)
      perCall.wallMs[c.id]?.push((wall1 - wall0) / calls)
      const cpuMs = clock.name === 'process-cpu' ? ms : (cpu1 ?? 0) - (cpu0 ?? 0)
      perCall.cpuMs?.[c.id]?.push(cpuMs / calls)
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
  const { now: _, ...described } = clock
  return { runtime: runtimeInfo(), gc, rates, lagMs, opMs, clock: { ...described, minBatchMs }, perCall }
}
