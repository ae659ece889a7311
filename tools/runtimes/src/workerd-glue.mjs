// The worker side of the workerd runtime, bundled in front of the entry module: one POST runs the
// entry's default export on the posted input and answers its JSON result. Nothing here but what a
// Worker has (fetch, Response); the host (workerd.mjs) starts workerd, posts, and serves the clock.

/**
 * What the host tells the worker about itself for src/portable.mjs to read: the workerd version (the
 * runtime cannot name its own build) and the URL of the host's reading of workerd's CPU time.
 * @typedef {{ version: string, clock?: { url: string, source: string, resolutionMs: number, minBatchMs: number } }} HostFacts
 */

/**
 * A module worker's default export that runs `run`.
 * @param {(input: unknown) => unknown} run
 */
export function serveEntry(run) {
  return {
    /** @param {Request} request */
    async fetch(request) {
      const { input, host } = /** @type {{ input: unknown, host: HostFacts }} */ (await request.json())
      const clock = host.clock
      const global = /** @type {any} */ (globalThis)
      global.__authlabWorkerd = {
        version: host.version,
        clock: clock && {
          name: 'process-cpu',
          source: clock.source,
          resolutionMs: clock.resolutionMs,
          minBatchMs: clock.minBatchMs,
          // One subrequest per reading: the host reads /proc while this request waits, so the reading
          // holds every CPU cycle spent before it, the worker's own part of the fetch included.
          now: async () => /** @type {{ ms: number }} */ (await (await fetch(clock.url)).json()).ms,
        },
      }
      try {
        return Response.json({ ok: true, result: await run(input) })
      } catch (error) {
        return Response.json({ ok: false, error: String(/** @type {Error} */ (error)?.stack ?? error) })
      }
    },
  }
}
