import { randomBytes } from 'node:crypto'
import { Agent } from 'node:http'
import type { Framework } from '@authlab/servers'
import { LOGIN } from '../cell.js'
import { type ServerProcess, startServer, stopServer } from '../fault/cell.js'
import { RACE_VARIANTS, type RaceVariant, raceOnce } from '../race.js'
import { REDIS_CLUSTER_PORTS } from '../services.js'

export interface CrossProcessRaceOptions {
  /** Module specifier of a hash package with `createHasher({ cost })`, loaded by the server processes. */
  readonly hasherModule: string
  /** The server processes (default two of each framework). */
  readonly frameworks?: readonly Framework[]
  /** Wrap each process's store in @authlab/session-logout-guard with its tombstones in the cluster. */
  readonly guard: boolean
  readonly trials?: number
  readonly concurrent?: number
}

export interface CrossProcessRaceReport {
  readonly store: 'redis-cluster'
  readonly processes: readonly Framework[]
  readonly variant: RaceVariant
  readonly guard: 'none' | 'guarded'
  readonly tombstones?: 'store'
  readonly trials: number
  readonly resurrected: number
  readonly failed: number
}

/**
 * The logout race across server processes on the cluster: each trial logs in on one process, logs
 * out on the next, and sends the concurrent requests and the final `GET /me` to the processes in turn,
 * so every process takes part in every trial. Each process has its own guard, as separate machines would.
 */
export async function runCrossProcessRace(
  options: CrossProcessRaceOptions,
): Promise<CrossProcessRaceReport[]> {
  const {
    frameworks = ['express', 'fastify', 'express', 'fastify'],
    guard,
    trials = 20,
    concurrent = 10,
  } = options
  const servers: ServerProcess[] = []
  const agent = new Agent({ keepAlive: true, maxSockets: 4 * concurrent })
  const scope = `cluster_race_${randomBytes(4).toString('hex')}`
  try {
    for (const framework of frameworks)
      servers.push(
        await startServer({
          store: 'redis-cluster',
          framework,
          saveBeforeReply: false,
          port: REDIS_CLUSTER_PORTS[0] as number,
          scope,
          hasherModule: options.hasherModule,
          secret: 'store-matrix-race-secret-of-32+chars',
          guardLogout: guard,
          users: { [LOGIN.username]: LOGIN.password },
        }),
      )
    const urls = servers.map((server) => server.url)
    const reports: CrossProcessRaceReport[] = []
    for (const variant of RACE_VARIANTS) {
      let resurrected = 0
      let failed = 0
      for (let trial = 0; trial < trials; trial++) {
        const at = (offset: number) => urls[(trial + offset) % urls.length] as string
        const outcome = await raceOnce({
          login: at(0),
          logout: at(1),
          others: [at(2), at(3), at(0), at(1)],
          path: variant === 'writes' ? '/' : '/me',
          agent,
          concurrent,
        })
        if (outcome === 'failed') failed++
        if (outcome === 'resurrected') resurrected++
      }
      reports.push({
        store: 'redis-cluster',
        processes: frameworks,
        variant,
        guard: guard ? 'guarded' : 'none',
        ...(guard ? { tombstones: 'store' as const } : {}),
        trials,
        resurrected,
        failed,
      })
    }
    const crashed = servers.find((server) => server.hasExited())
    if (crashed) throw new Error(`a server process crashed: ${crashed.stderr()}`)
    return reports
  } finally {
    agent.destroy()
    await Promise.allSettled(servers.map((server) => stopServer(server)))
  }
}
