// Facilities that differ between runtimes, behind one call each, for code that runs in all of them
// (Node, Bun, Deno, browsers, workerd). No Node built-ins here: browsers have none.

/** What the workerd host told this worker (src/workerd-glue.mjs), or undefined elsewhere. */
const workerdHost = () => /** @type {any} */ (globalThis).__authlabWorkerd

/** The runtime actually executing this code, as it reports itself. */
export function runtimeInfo() {
  const g = /** @type {any} */ (globalThis)
  // Before the Node check: workerd's nodejs_compat fills in process.versions.node (22.x) too.
  if (g.navigator?.userAgent === 'Cloudflare-Workers')
    return { name: 'workerd', version: workerdHost()?.version ?? 'unknown' }
  if (g.Bun) return { name: 'bun', version: g.Bun.version }
  if (g.Deno) return { name: 'deno', version: g.Deno.version.deno }
  if (g.process?.versions?.node) return { name: 'node', version: g.process.versions.node }
  if (g.navigator?.userAgent) {
    const ua = g.navigator.userAgent
    const match = /(Firefox|Chrome)\/([\d.]+)/.exec(ua)
    return { name: match?.[1] === 'Firefox' ? 'firefox' : 'chromium', version: match?.[2] ?? ua }
  }
  return { name: 'unknown', version: 'unknown' }
}

/**
 * A full collection where the runtime offers one: Bun.gc(true); `gc()` where V8 exposes it (Node
 * with --expose-gc, Deno with --v8-flags=--expose-gc, Chromium with --js-flags=--expose-gc).
 * Firefox offers none to pages. Returns why not, so callers print it instead of pretending.
 * @returns {{ collected: true } | { collected: false, reason: string }}
 */
export function collectGarbage() {
  const g = /** @type {any} */ (globalThis)
  if (g.Bun) {
    g.Bun.gc(true)
    return { collected: true }
  }
  if (typeof g.gc === 'function') {
    g.gc()
    return { collected: true }
  }
  return { collected: false, reason: `${runtimeInfo().name} exposes no garbage-collection call to this code` }
}

/**
 * @typedef {{ name: 'performance.now', minBatchMs: number, now: () => number }
 *   | { name: 'process-cpu', source: string, resolutionMs: number, minBatchMs: number, now: () => Promise<number> }} BatchClock
 */

/**
 * The clock a batch of calls is timed with, in milliseconds. `performance.now()` everywhere but
 * workerd: Workers deployed on Cloudflare advance it (and Date.now) only at I/O, as a Spectre
 * mitigation, so a batch of pure computation there would time as zero. There the host reads the
 * workerd process's CPU time from /proc at each reading, a subrequest away (src/cpu-clock.mjs), and
 * `minBatchMs` is the shortest batch that clock times well.
 * @returns {BatchClock}
 */
export function batchClock() {
  return workerdHost()?.clock ?? { name: 'performance.now', minBatchMs: 0, now: () => performance.now() }
}

/**
 * This process's CPU time in milliseconds, read synchronously, where the runtime offers it beside its
 * batch clock: `process.cpuUsage()` (user + system, every thread) in Node, Bun and Deno. Undefined in
 * browsers, which offer pages none, and in workerd, whose batch clock already is its process's CPU time.
 * @returns {(() => number) | undefined}
 */
export function processCpuMs() {
  const g = /** @type {any} */ (globalThis)
  if (workerdHost() || typeof g.process?.cpuUsage !== 'function') return undefined
  return () => {
    const { user, system } = g.process.cpuUsage()
    return (user + system) / 1000
  }
}

/** The median of a list of numbers (0 for none). */
function median(/** @type {number[]} */ values) {
  const sorted = [...values].sort((x, y) => x - y)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

/** The median gap between runs of a re-armed 1 ms timer on an idle loop here: ~1 ms in Node, Bun and
 * Deno, 4 ms in browsers, which clamp nested timers (HTML "timer initialisation steps"). */
async function idleGap() {
  /** @type {number[]} */
  const gaps = []
  let last = performance.now()
  while (gaps.length < 20) {
    await new Promise((resolve) => setTimeout(resolve, 1))
    const now = performance.now()
    gaps.push(now - last)
    last = now
  }
  return median(gaps)
}

/**
 * How the event loop fared while `work` ran, seen by a 1 ms timer that re-arms itself:
 * - `maxLagMs`, its worst lateness: how long a concurrent request would have waited at once;
 * - `gapMs`, the median gap between its runs, against `idleGapMs` on the idle loop just before. Work
 *   done on the main thread in chunks that yield (scrypt-js) holds the timer back a chunk at a time:
 *   every gap grows. Work on another thread leaves most gaps idle-sized; a busy machine that
 *   deschedules the process now and then stretches a few gaps, not the median.
 * Works wherever setTimeout and performance.now exist, which is every runtime here.
 * @template T
 * @param {() => Promise<T>} work
 * @returns {Promise<{ result: T, maxLagMs: number, gapMs: number, idleGapMs: number, ms: number }>}
 */
export async function loopLagDuring(work) {
  const idleGapMs = await idleGap()
  /** @type {number[]} */
  const gaps = []
  let maxLagMs = 0
  let running = true
  let last = performance.now()
  let expected = last + 1
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer
  const tick = () => {
    const now = performance.now()
    maxLagMs = Math.max(maxLagMs, now - expected)
    gaps.push(now - last)
    last = now
    if (!running) return
    expected = now + 1
    timer = setTimeout(tick, 1)
  }
  timer = setTimeout(tick, 1)
  const start = performance.now()
  try {
    const result = await work()
    const ms = performance.now() - start
    // One more turn so a block that ended the work is still seen by the timer.
    await new Promise((resolve) => setTimeout(resolve, 2))
    return { result, maxLagMs, gapMs: median(gaps), idleGapMs, ms }
  } finally {
    running = false
    clearTimeout(timer)
  }
}
