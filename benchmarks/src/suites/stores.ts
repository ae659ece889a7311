import { randomBytes } from 'node:crypto'
import { createUserDirectory, startExpressServer, type UserDirectory } from '@authlab/servers'
import {
  cellText,
  ensureCluster,
  type GeneratorUnderTest,
  LOGIN,
  redisClusterStore,
  redisStore,
  runStore,
  STORES,
  type StoreReport,
} from '@authlab/store-matrix'
import { FULL } from '../measure/budget.js'
import { runRounds } from '../measure/rounds.js'
import { median } from '../measure/stats.js'
import { MIN_ROUNDS, perRoundRatios, summarizeRatio } from '../measure/verdict.js'
import type { Suite, SuiteRow } from '../types.js'
import { load } from './http/load.js'

const BASELINE_STORE = 'memory'

/** Quick runs the same checks with 200 concurrent sessions per cell instead of 1,000. */
const SESSIONS_UNDER_LOAD = { quick: 200, full: 1000 } as const

function compatibilityRows(report: StoreReport, labels: ReadonlyMap<string, string>): SuiteRow[] {
  const cells: SuiteRow[] = report.cells.map(({ generator, framework, outcome }) => ({
    group: `compatibility · ${report.label} · ${framework}`,
    candidate: generator,
    label: labels.get(generator) ?? generator,
    value: outcome.ok ? 1 : 0,
    unit: 'compatible',
    higherIsBetter: true,
    ratios: [],
    details: { result: cellText(outcome) },
    flags: outcome.ok ? [] : [`${outcome.step}: ${outcome.reason}`],
  }))
  const lengths: SuiteRow[] = report.lengths.map(({ length, framework, outcome }) => ({
    group: `ID length limits · ${report.label}`,
    candidate: `length-${length}·${framework}`,
    label: `${length} characters · ${framework}`,
    value: outcome.ok ? 1 : 0,
    unit: 'kept intact',
    higherIsBetter: true,
    ratios: [],
    details: { result: cellText(outcome) },
    flags: [],
  }))
  return [...cells, ...lengths]
}

function latencyRows(reports: readonly StoreReport[]): SuiteRow[] {
  const base = reports.find((r) => r.store === BASELINE_STORE)?.latency
  return reports.flatMap((report) => {
    const latency = report.latency
    if (!latency) return []
    return (['set', 'get'] as const).map((op) => {
      const value = op === 'set' ? latency.setMedianMs : latency.getMedianMs
      const baseValue = base && (op === 'set' ? base.setMedianMs : base.getMedianMs)
      return {
        group: `store.${op} latency`,
        candidate: report.store,
        label: report.label,
        value,
        unit: `ms/${op}`,
        higherIsBetter: false,
        samples: latency.samples,
        // One sampling run per store, no rounds: the memory store's figure is shown beside it, not as a ratio.
        ratios: [],
        details: {
          p95: op === 'set' ? latency.setP95Ms : latency.getP95Ms,
          ...(baseValue ? { [`${BASELINE_STORE} ms`]: baseValue } : {}),
        },
        flags: report.store === BASELINE_STORE ? ['baseline'] : [],
      }
    })
  })
}

/**
 * Single Redis against the Redis Cluster under HTTP load: express-session on each store, `GET /`
 * without a cookie (a new session and one store write per request), in shuffled rounds with single
 * Redis measured twice (the second as the A/A control, which must read "same").
 */
async function clusterThroughputRows(
  users: UserDirectory,
  full: boolean,
): Promise<{ rows: SuiteRow[]; notes: string[] }> {
  const candidates = [
    { key: 'redis', label: 'single Redis', backend: redisStore },
    { key: 'redis-a/a', label: 'single Redis (A/A control)', backend: redisStore },
    { key: 'redis-cluster', label: 'Redis Cluster (3 masters + 3 replicas)', backend: redisClusterStore },
  ]
  const notes: string[] = []
  const durationSec = full ? 5 : 2
  const results = await runRounds(
    candidates,
    full ? 7 : MIN_ROUNDS,
    1,
    async (candidate) => {
      const opened = await candidate.backend.open(`bench_${randomBytes(4).toString('hex')}`)
      const server = await startExpressServer({
        generateId: () => randomBytes(16).toString('base64url'),
        users,
        secret: 'authlab-bench-stores-suite-secret-32+',
        store: opened.store,
        saveBeforeReply: true,
      })
      try {
        await load(server.url, { path: '/', connections: 8, durationSec: 1 }) // warm-up, discarded
        const result = await load(server.url, { path: '/', connections: 8, durationSec })
        if (result.failures > 0) throw new Error(`${result.failures} failed requests`)
        return result
      } finally {
        await server.close()
        await opened.close()
      }
    },
    (candidate, error) => notes.push(`${candidate.label}: a round failed: ${String(error)}`),
  )
  const perSecond = (key: string) =>
    (results.get(candidates.find((c) => c.key === key) as (typeof candidates)[0]) ?? []).map(
      (r) => r?.requestsPerSec,
    )
  const rows = candidates.map((candidate): SuiteRow => {
    const rounds = (results.get(candidate) ?? []).filter((r) => r !== undefined)
    const isBaseline = candidate.key === 'redis'
    return {
      group:
        'HTTP · single Redis vs Redis Cluster (express-session, save-before-reply, new session per request)',
      candidate: candidate.key,
      label: candidate.label,
      value: rounds.length > 0 ? median(rounds.map((r) => r.requestsPerSec)) : 0,
      unit: 'req/s',
      higherIsBetter: true,
      rounds: rounds.map((r) => r.requestsPerSec),
      ratios: isBaseline
        ? []
        : [summarizeRatio('redis', perRoundRatios(perSecond(candidate.key), perSecond('redis'), true))],
      details: {
        p50: rounds.length > 0 ? median(rounds.map((r) => r.p50Ms)) : 0,
        p99: rounds.length > 0 ? median(rounds.map((r) => r.p99Ms)) : 0,
      },
      flags: isBaseline ? ['baseline'] : candidate.key === 'redis-a/a' ? ['A/A control'] : [],
    }
  })
  return { rows, notes }
}

export const storesSuite: Suite = {
  name: 'stores',
  onRequestOnly: true,
  description:
    'The store-compatibility matrix: every generator × real session store × express-session and @fastify/session, ID length limits, hostile cookies, and store.get/set latency per store.',
  async run(candidates, ctx) {
    const full = ctx.budget === FULL
    const hashCandidate = candidates.hashers[0]
    if (!hashCandidate)
      return { rows: [], notes: ['no hasher discovered: POST /login cannot be checked, suite not run'] }
    const users = await createUserDirectory(hashCandidate.create(), { [LOGIN.username]: LOGIN.password })
    const generators: GeneratorUnderTest[] = candidates.ids.map((c) => ({
      key: c.id,
      label: c.label,
      generate: c.create(),
    }))
    const labels = new Map(generators.map((g) => [g.key, g.label]))
    const sessionsUnderLoad = full ? SESSIONS_UNDER_LOAD.full : SESSIONS_UNDER_LOAD.quick
    ctx.progress.plan(STORES.length + 1)
    const reports: StoreReport[] = []
    for (const store of STORES) {
      ctx.progress.step(store.label)
      reports.push(
        await runStore(store, {
          generators,
          users,
          secret: 'authlab-bench-stores-suite-secret-32+',
          sessionsUnderLoad,
        }),
      )
    }
    // The cluster is started like the tests start it (scripts/redis-cluster.sh); one that will not form
    // leaves its rows failing with the reason in the notes.
    const clusterError = await ensureCluster().then(
      () => undefined,
      (error: unknown) => String(error),
    )
    ctx.progress.step('single Redis vs Redis Cluster under HTTP load')
    const throughput = await clusterThroughputRows(users, full)
    const notes = [
      ...(clusterError ? [clusterError] : []),
      ...throughput.notes,
      `${sessionsUnderLoad} concurrent sessions per cell (--full runs 1,000); logins verified with ${hashCandidate.id}.`,
      ...reports.flatMap((r) => (r.status === 'ran' ? [] : [`${r.label} not run: ${r.message}`])),
      ...reports.flatMap((r) =>
        Object.entries(r.serverErrors).map(
          ([message, count]) => `${r.label}: server error ×${count}: ${message}`,
        ),
      ),
    ]
    return {
      rows: [
        ...throughput.rows,
        ...latencyRows(reports),
        ...reports.flatMap((r) => compatibilityRows(r, labels)),
      ],
      notes,
    }
  },
}
