import { randomBytes } from 'node:crypto'
import { Agent } from 'node:http'
import { FRAMEWORKS, type Framework, send, type UserDirectory } from '@authlab/servers'
import { guardLogout, memoryTombstones, storeTombstones } from '@authlab/session-logout-guard'
import type { Store } from 'express-session'
import { LOGIN } from './cell.js'
import type { StoreBackend } from './stores/backend.js'

/**
 * `writes`: the concurrent requests change the session (`GET /` counts a visit);
 * `read-only`: they only read it (`GET /me`).
 */
export type RaceVariant = 'writes' | 'read-only'
export const RACE_VARIANTS: readonly RaceVariant[] = ['writes', 'read-only']

/** `none`: the store as is; `guarded`: wrapped by @authlab/session-logout-guard. */
export type RaceGuard = 'none' | 'guarded'

export interface RaceOptions {
  readonly backend: StoreBackend
  readonly framework: Framework
  readonly variant: RaceVariant
  readonly guard: RaceGuard
  readonly users: UserDirectory
  readonly secret: string
  /** Logins raced against their logout. */
  readonly trials?: number
  /** Requests sent with the cookie before the logout in the same batch, and as many after it. */
  readonly concurrent?: number
}

export interface RaceReport {
  readonly store: string
  readonly framework: Framework
  readonly variant: RaceVariant
  readonly guard: RaceGuard
  /** Which tombstones the guard used: in memory, or in the session store itself (seen by every process). */
  readonly tombstones?: 'memory' | 'store'
  readonly trials: number
  /** Trials where `GET /me` still answered the logged-in user after the logout had answered 204. */
  readonly resurrected: number
  /** Trials whose login or logout itself failed; they count neither way. */
  readonly failed: number
}

/** Session lifetime in the race servers; the guard remembers destroyed IDs this long. */
const MAX_AGE_MS = 30 * 60 * 1000

/**
 * Logout against requests in flight with the same cookie: log in (cookie C), then send
 * `concurrent` × request, `POST /logout`, `concurrent` × request at once, all with C, and ask `GET /me`
 * with C once they have all answered. A 200 there is a resurrected session. The store is a fresh
 * namespace of `backend`; with `guard: 'guarded'` it is wrapped by guardLogout, with tombstones in the
 * store itself when the backend is a shared server (the multi-process setting) and in memory otherwise.
 */
export async function runLogoutRace(options: RaceOptions): Promise<RaceReport> {
  const { backend, framework, variant, guard, users, secret, trials = 20, concurrent = 10 } = options
  const opened = await backend.open(
    `race_${framework}_${variant.replace('-', '')}_${guard}_${Date.now() % 1e6}`,
  )
  const tombstones = guard === 'none' ? undefined : backend.service ? 'store' : 'memory'
  const store =
    guard === 'none'
      ? opened.store
      : guardLogout(opened.store, {
          maxAgeMs: MAX_AGE_MS,
          tombstones: tombstones === 'store' ? storeTombstones(opened.store) : memoryTombstones(),
        })
  const server = await FRAMEWORKS[framework]({
    generateId: () => randomBytes(16).toString('base64url'),
    users,
    secret,
    store: store as Store,
    maxAgeMs: MAX_AGE_MS,
  }).catch(async (error: unknown) => {
    await opened.close()
    throw error
  })
  const agent = new Agent({ keepAlive: true, maxSockets: 2 * concurrent + 1 })
  const path = variant === 'writes' ? '/' : '/me'
  let resurrected = 0
  let failed = 0
  try {
    for (let trial = 0; trial < trials; trial++) {
      const login = await send(server.url, { method: 'POST', path: '/login', body: LOGIN, agent })
      const cookie = login.sessionCookie
      if (login.status !== 200 || cookie === undefined) {
        failed++
        continue
      }
      const burst = () => Array.from({ length: concurrent }, () => send(server.url, { path, cookie, agent }))
      const replies = await Promise.all([
        ...burst(),
        send(server.url, { method: 'POST', path: '/logout', cookie, agent }),
        ...burst(),
      ])
      if (replies[concurrent]?.status !== 204) {
        failed++
        continue
      }
      const me = await send(server.url, { path: '/me', cookie, agent })
      if (me.status === 200 && me.json?.user === LOGIN.username) resurrected++
    }
  } finally {
    agent.destroy()
    await server.close()
    await opened.close()
  }
  return { store: backend.name, framework, variant, guard, tombstones, trials, resurrected, failed }
}
