import { randomBytes } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import type { SessionData } from 'express-session'
import { call, type OpenStore } from './stores/backend.js'

export interface Latency {
  readonly samples: number
  /** Median and 95th percentile of one `store.set` / `store.get`, in milliseconds. */
  readonly setMedianMs: number
  readonly setP95Ms: number
  readonly getMedianMs: number
  readonly getP95Ms: number
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN
}

/** Sequential set-then-get round trips through the store API, one at a time so each is a latency. */
export async function measureLatency({ store }: OpenStore, samples: number): Promise<Latency> {
  const sets: number[] = []
  const gets: number[] = []
  const ids: string[] = []
  const session = {
    cookie: {
      originalMaxAge: 1_800_000,
      expires: new Date(Date.now() + 1_800_000),
      httpOnly: true,
      path: '/',
    },
    visits: 1,
  } as unknown as SessionData
  for (let i = 0; i < samples; i++) {
    const id = randomBytes(24).toString('base64url')
    ids.push(id)
    const start = performance.now()
    await call((done) => store.set(id, session, done))
    const stored = performance.now()
    const read = await call<SessionData | null>((done) => store.get(id, done))
    gets.push(performance.now() - stored)
    sets.push(stored - start)
    if (!read) throw new Error(`latency probe: session ${id} was set but not read back`)
  }
  for (const id of ids) await call((done) => store.destroy(id, done))
  sets.sort((a, b) => a - b)
  gets.sort((a, b) => a - b)
  return {
    samples,
    setMedianMs: percentile(sets, 0.5),
    setP95Ms: percentile(sets, 0.95),
    getMedianMs: percentile(gets, 0.5),
    getP95Ms: percentile(gets, 0.95),
  }
}
