import session from 'express-session'

/**
 * express-session's MemoryStore forgets an expired session only when that session is read again, and
 * @fastify/session's default store never does: sessions nobody comes back for pile up until the
 * process runs out of memory. This MemoryStore also sweeps expired sessions on a timer. Its `all()`
 * already drops every expired entry it meets (express-session session/memory.js), so a sweep is one
 * `all()` call. The timer is unref'd, so it never keeps the process alive, and `close()` stops it.
 */
export class PrunedMemoryStore extends session.MemoryStore {
  private readonly sweep: NodeJS.Timeout

  constructor(readonly pruneIntervalMs: number) {
    super()
    this.sweep = setInterval(() => this.prune(), pruneIntervalMs)
    this.sweep.unref()
  }

  /** Drops every expired session now; resolves to how many sessions are left. */
  prune(): Promise<number> {
    return new Promise((resolve, reject) =>
      this.all((error, sessions) => (error ? reject(error) : resolve(Object.keys(sessions ?? {}).length))),
    )
  }

  close(): void {
    clearInterval(this.sweep)
  }
}

/** Sweeps at least once a minute, and at least once per max age so short-lived test sessions go too. */
export function createDefaultStore(maxAgeMs: number): PrunedMemoryStore {
  return new PrunedMemoryStore(Math.min(maxAgeMs, 60_000))
}
