import { randomBytes } from 'node:crypto'
import { Agent } from 'node:http'
import { FRAMEWORKS, type Framework, type RunningServer, send, type UserDirectory } from '@authlab/servers'
import { guardLogout, memoryTombstones, storeTombstones } from '@authlab/session-logout-guard'
import type { Store } from 'express-session'
import { LOGIN } from './cell.js'
import type { OpenStore, StoreBackend } from './stores/backend.js'

/**
 * `writes`: the concurrent requests change the session (`GET /` counts a visit);
 * `read-only`: they only read it (`GET /me`).
 */
export type RaceVariant = 'writes' | 'read-only'
export const RACE_VARIANTS: readonly RaceVariant[] = ['writes', 'read-only']

/** `none`: the store as is; `guarded`: wrapped by @authlab/session-logout-guard. */
export type RaceGuard = 'none' | 'guarded'
export const RACE_GUARDS: readonly RaceGuard[] = ['none', 'guarded']

/** Where the guard keeps its tombstones: each server's memory, or the session store they share. */
export type TombstonePlace = 'memory' | 'store'
export const TOMBSTONE_PLACES: readonly TombstonePlace[] = ['memory', 'store']

export interface RaceOptions {
  readonly backend: StoreBackend
  /**
   * The framework of the server everything goes to, or a pair: then the login, the logout and nothing
   * else go to the first, the concurrent requests and the final `GET /me` to the second, both on one
   * store, each with its own guard (two processes behind one shared store, as far as the guard can tell).
   */
  readonly framework: Framework | readonly [Framework, Framework]
  readonly variant: RaceVariant
  readonly guard: RaceGuard
  /** Default: `store` for a server-backed store, `memory` for an embedded one. */
  readonly tombstones?: TombstonePlace
  readonly users: UserDirectory
  readonly secret: string
  /** Logins raced against their logout. */
  readonly trials?: number
  /** Requests sent with the cookie before the logout in the same batch, and as many after it. */
  readonly concurrent?: number
}

export interface RaceReport {
  readonly store: string
  /** `express`, `fastify`, or `express→fastify` when the logout and the other requests go to different servers. */
  readonly framework: string
  readonly variant: RaceVariant
  readonly guard: RaceGuard
  readonly tombstones?: TombstonePlace
  readonly trials: number
  /** Trials where `GET /me` still answered the logged-in user after the logout had answered 204. */
  readonly resurrected: number
  /** Trials whose login or logout itself failed; they count neither way. */
  readonly failed: number
}

/** Session lifetime in the race servers; the guard remembers destroyed IDs this long. */
const MAX_AGE_MS = 30 * 60 * 1000

function storeFor(opened: OpenStore, guard: RaceGuard, tombstones: TombstonePlace): Store {
  if (guard === 'none') return opened.store
  return guardLogout(opened.store, {
    maxAgeMs: MAX_AGE_MS,
    tombstones: tombstones === 'store' ? storeTombstones(opened.store) : memoryTombstones(),
  }) as Store
}

export interface RaceTrialOptions {
  /** Server that takes the login. */
  readonly login: string
  /** Server that takes the logout. */
  readonly logout: string
  /** Servers that take the concurrent requests and the final `GET /me`, in turn. */
  readonly others: readonly string[]
  /** `/` (writes) or `/me` (read-only). */
  readonly path: string
  readonly agent: Agent
  readonly concurrent: number
}

/**
 * One trial: log in (cookie C), then `concurrent` × request, `POST /logout`, `concurrent` × request at
 * once, all with C, then `GET /me` with C once they have all answered: a 200 there is a resurrection.
 * `failed` when the login or the logout itself did not succeed.
 */
export async function raceOnce(options: RaceTrialOptions): Promise<'held' | 'resurrected' | 'failed'> {
  const { login: loginUrl, logout: logoutUrl, others, path, agent, concurrent } = options
  let turn = 0
  const next = () => others[turn++ % others.length] as string
  const login = await send(loginUrl, { method: 'POST', path: '/login', body: LOGIN, agent })
  const cookie = login.sessionCookie
  if (login.status !== 200 || cookie === undefined) return 'failed'
  const burst = () => Array.from({ length: concurrent }, () => send(next(), { path, cookie, agent }))
  const replies = await Promise.all([
    ...burst(),
    send(logoutUrl, { method: 'POST', path: '/logout', cookie, agent }),
    ...burst(),
  ])
  if (replies[concurrent]?.status !== 204) return 'failed'
  const me = await send(next(), { path: '/me', cookie, agent })
  return me.status === 200 && me.json?.user === LOGIN.username ? 'resurrected' : 'held'
}

/**
 * Logout against requests in flight with the same cookie: log in (cookie C), then send
 * `concurrent` × request, `POST /logout`, `concurrent` × request at once, all with C, and ask `GET /me`
 * with C once they have all answered. A 200 there is a resurrected session. The store is a fresh
 * namespace of `backend`.
 */
export async function runLogoutRace(options: RaceOptions): Promise<RaceReport> {
  const { backend, variant, guard, users, secret, trials = 20, concurrent = 10 } = options
  const [first, second] = typeof options.framework === 'string' ? [options.framework] : options.framework
  const label = second === undefined ? first : `${first}→${second}`
  const tombstones = options.tombstones ?? (backend.service ? 'store' : 'memory')
  // A race needs requests in flight together, not a connection each: the column's cells run at once
  // against shared services, so each keeps a small pool.
  const opened = await backend.open(`race_${randomBytes(4).toString('hex')}`, { maxConnections: 3 })
  const servers: RunningServer[] = []
  const agent = new Agent({ keepAlive: true, maxSockets: 2 * concurrent + 1 })
  const path = variant === 'writes' ? '/' : '/me'
  let resurrected = 0
  let failed = 0
  try {
    // One guard per server, as two processes would have; @fastify/session may share a store instance
    // with express-session, which only sets `generate` on it.
    for (const framework of second === undefined ? [first] : [first, second]) {
      servers.push(
        await FRAMEWORKS[framework]({
          generateId: () => randomBytes(16).toString('base64url'),
          users,
          secret,
          store: storeFor(opened, guard, tombstones),
          maxAgeMs: MAX_AGE_MS,
        }),
      )
    }
    const [origin, other = origin] = servers.map((server) => server.url) as [string, string?]
    for (let trial = 0; trial < trials; trial++) {
      const outcome = await raceOnce({
        login: origin,
        logout: origin,
        others: [other],
        path,
        agent,
        concurrent,
      })
      if (outcome === 'failed') failed++
      if (outcome === 'resurrected') resurrected++
    }
  } finally {
    agent.destroy()
    await Promise.allSettled(servers.map((server) => server.close()))
    await opened.close()
  }
  return {
    store: backend.name,
    framework: label,
    variant,
    guard,
    ...(guard === 'guarded' ? { tombstones } : {}),
    trials,
    resurrected,
    failed,
  }
}

export interface RaceColumnOptions {
  readonly users: UserDirectory
  readonly secret: string
  readonly frameworks?: readonly Framework[]
  readonly trials?: number
}

/**
 * The logout-race column of one store: framework × variant × without and with the guard and, for a
 * server-backed store, the two-server race with the guard's tombstones in each server's memory and
 * in the shared store. All cells at once, each on its own namespace and servers: a race is between
 * the requests of one cell, and the trials within a cell stay sequential.
 */
export function runRaceColumn(backend: StoreBackend, options: RaceColumnOptions): Promise<RaceReport[]> {
  const { frameworks = ['express', 'fastify'], ...shared } = options
  const cells: Omit<RaceOptions, 'backend' | 'users' | 'secret' | 'trials'>[] = frameworks.flatMap(
    (framework) =>
      RACE_VARIANTS.flatMap((variant) => RACE_GUARDS.map((guard) => ({ framework, variant, guard }))),
  )
  const [first, second] = frameworks
  if (backend.service && first !== undefined && second !== undefined)
    for (const tombstones of TOMBSTONE_PLACES)
      cells.push({ framework: [first, second], variant: 'writes', guard: 'guarded', tombstones })
  return Promise.all(cells.map((cell) => runLogoutRace({ ...shared, ...cell, backend })))
}
