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
import { median, quantile } from '../measure/stats.js'
import { CONTROL_FLAG, MIN_ROUNDS, summarizeRatio } from '../measure/verdict.js'
import type { Ratio, Suite, SuiteRow } from '../types.js'
import { defined, wholeRounds } from './common.js'
import {
  alternatingWindows,
  type CycleWindows,
  cycleRatio,
  type LoadSource,
  openLoad,
} from './http/window.js'

const BASELINE_STORE = 'memory'

/** Quick runs the same checks with 200 concurrent sessions per cell instead of 1,000. */
const sessionsUnderLoad = (mode: 'quick' | 'full') => (mode === 'full' ? 1000 : 200)

const SECRET = 'authlab-bench-stores-suite-secret-32+'

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

/** Alternating windows per round (quick, full): each cycle is one window per candidate in a fresh order. */
const THROUGHPUT = {
  quick: { windowSec: 0.25, cycles: 8, raceMs: 30_000 },
  full: { windowSec: 1, cycles: 6, raceMs: 120_000 },
} as const

/** Connections per server: enough to keep the store's round trips overlapping. */
const CONNECTIONS = 8

/**
 * Single Redis against the Redis Cluster under HTTP load: express-session on each store, `GET /`
 * without a cookie (a new session and one store write per request). Each round opens every store and
 * server afresh, warms them, then runs cycles of one short window per server on kept-alive
 * connections, in a fresh order each cycle: a ratio compares windows of the same cycle, so the
 * machine's speed at that moment is in both. Single Redis is served twice, the second as the A/A
 * control. Rounds race while a ratio is undecided.
 */
async function clusterThroughputRows(
  users: UserDirectory,
  full: boolean,
  seed: number,
): Promise<{ rows: SuiteRow[]; notes: string[] }> {
  const candidates = [
    { key: 'redis', label: 'single Redis', backend: redisStore },
    { key: 'redis-a/a', label: 'single Redis (A/A control)', backend: redisStore },
    { key: 'redis-cluster', label: 'Redis Cluster (3 masters + 3 replicas)', backend: redisClusterStore },
  ]
  const keys = candidates.map((c) => c.key)
  const budget = full ? THROUGHPUT.full : THROUGHPUT.quick
  const notes: string[] = []
  const measureRound = async (round: number): Promise<CycleWindows<string>> => {
    const opened: { close(): Promise<unknown> }[] = []
    try {
      const sources = new Map<string, LoadSource>()
      for (const candidate of candidates) {
        const store = await candidate.backend.open(`bench_${randomBytes(4).toString('hex')}`)
        opened.push(store)
        const server = await startExpressServer({
          generateId: () => randomBytes(16).toString('base64url'),
          users,
          secret: SECRET,
          store: store.store,
          saveBeforeReply: true,
        })
        opened.push(server)
        const source = openLoad(server.url, '/', CONNECTIONS, { recordLatencies: true })
        opened.push(source)
        sources.set(candidate.key, source)
      }
      for (const source of sources.values()) await source.window(1) // warm-up, discarded
      return await alternatingWindows(keys, budget.cycles, seed, round, (key) =>
        (sources.get(key) as LoadSource).window(budget.windowSec),
      )
    } finally {
      for (const resource of opened.reverse()) await resource.close().catch(() => {})
    }
  }
  const ratioOf = (rounds: readonly (CycleWindows<string> | undefined)[], key: string): Ratio =>
    summarizeRatio(
      'single Redis',
      defined(rounds.map((r) => cycleRatio(r?.rates.get(key) ?? [], r?.rates.get('redis') ?? []))),
    )
  const rounds = await wholeRounds({
    budget: { rounds: full ? 7 : MIN_ROUNDS, race: { maxRounds: 16, budgetMs: budget.raceMs } },
    seed,
    measure: measureRound,
    onError: (error) => notes.push(`a round failed: ${String(error)}`),
    ratios: (rounds) => keys.filter((key) => key !== 'redis').map((key) => ratioOf(rounds, key)),
  })
  const rows = candidates.map((candidate): SuiteRow => {
    const perRound = rounds.flatMap((r) => {
      const clean = defined(r?.rates.get(candidate.key) ?? [])
      return clean.length > 0 ? [median(clean)] : []
    })
    const latencies = rounds.map((r) => r?.latenciesMs.get(candidate.key) ?? []).filter((l) => l.length > 0)
    const isBaseline = candidate.key === 'redis'
    return {
      group:
        'HTTP · single Redis vs Redis Cluster (express-session, save-before-reply, new session per request)',
      candidate: candidate.key,
      label: candidate.label,
      value: perRound.length > 0 ? median(perRound) : 0,
      unit: 'req/s',
      higherIsBetter: true,
      rounds: perRound,
      ratios: isBaseline ? [] : [ratioOf(rounds, candidate.key)],
      details: {
        // Per round, the percentile of every request in its windows; the median over rounds.
        p50: latencies.length > 0 ? median(latencies.map((l) => quantile(l, 0.5))) : 0,
        p99: latencies.length > 0 ? median(latencies.map((l) => quantile(l, 0.99))) : 0,
      },
      flags: isBaseline ? ['baseline'] : candidate.key === 'redis-a/a' ? [CONTROL_FLAG] : [],
    }
  })
  return { rows, notes }
}

export const storesSuite: Suite = {
  name: 'stores',
  roundsAreProcesses: true,
  onRequestOnly: true,
  description:
    'The store-compatibility matrix: every generator × real session store × express-session and @fastify/session, ID length limits, hostile cookies, and store.get/set latency per store.',
  method: (budget) =>
    `Every generator is served by express-session and @fastify/session over each real session store (${sessionsUnderLoad(budget.mode)} concurrent sessions per cell), IDs of growing length find each store's limit, hostile cookies are sent, and store.get/set latency is read per store; single Redis (twice: the second is the A/A control) and the Redis Cluster are compared under HTTP load, each round opening every store and server afresh and running cycles of one short window per server in a fresh order, a ratio comparing windows of the same cycle.`,
  async run(candidates, ctx) {
    const full = ctx.budget.mode === 'full'
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
    ctx.progress.plan(STORES.length + 1)
    const reports: StoreReport[] = []
    for (const store of STORES) {
      ctx.progress.step(store.label)
      const options = {
        generators,
        users,
        secret: SECRET,
        sessionsUnderLoad: sessionsUnderLoad(ctx.budget.mode),
      }
      reports.push(await runStore(store, options))
    }
    // The cluster is started like the tests start it (scripts/redis-cluster.sh); one that will not form
    // leaves its rows failing with the reason in the notes.
    const clusterError = await ensureCluster().then(
      () => undefined,
      (error: unknown) => String(error),
    )
    ctx.progress.step('single Redis vs Redis Cluster under HTTP load')
    const throughput = await clusterThroughputRows(users, full, ctx.seed)
    const notes = [
      ...(clusterError ? [clusterError] : []),
      ...throughput.notes,
      `Logins verified with ${hashCandidate.id}.`,
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
