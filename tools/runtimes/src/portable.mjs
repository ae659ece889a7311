// Facilities that differ between runtimes, behind one call each, for code that runs in all of them
// (Node, Bun, Deno, browsers). No Node built-ins here: browsers have none.

/** The runtime actually executing this code, as it reports itself. */
export function runtimeInfo() {
  const g = /** @type {any} */ (globalThis)
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
 * How late a 1 ms timer fires while `work` runs: the event-loop blocking a caller sees. A timer that
 * re-arms itself records its lateness; the worst lateness is what a concurrent request would wait.
 * Works wherever setTimeout and performance.now exist, which is every runtime here.
 * @template T
 * @param {() => Promise<T>} work
 * @returns {Promise<{ result: T, maxLagMs: number, ms: number }>}
 */
export async function loopLagDuring(work) {
  let maxLagMs = 0
  let running = true
  let expected = performance.now() + 1
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer
  const tick = () => {
    const now = performance.now()
    maxLagMs = Math.max(maxLagMs, now - expected)
    if (!running) return
    expected = now + 1
    timer = setTimeout(tick, 1)
  }
  timer = setTimeout(tick, 1)
  const start = performance.now()
  try {
    const result = await work()
    // One more turn so a block that ended the work is still seen by the timer.
    await new Promise((resolve) => setTimeout(resolve, 2))
    return { result, maxLagMs, ms: performance.now() - start }
  } finally {
    running = false
    clearTimeout(timer)
  }
}
