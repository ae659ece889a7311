import { randomBytes } from 'node:crypto'
import {
  defined,
  median,
  quantile,
  type Ratio,
  type SuiteContext,
  type SuiteRow,
  summarizeRatio,
  wholeRounds,
} from '@authlab/benchmarks/harness'
import { startExpressServer, type UserDirectory } from '@authlab/servers'
import { redisClusterStore, redisStore } from '@authlab/store-matrix'
import {
  alternatingWindows,
  type CycleWindows,
  cycleRatio,
  type LoadSource,
  openLoad,
} from './http/window.js'

/** Alternating windows per round (quick, full): each cycle is one window per candidate in a fresh order. */
const THROUGHPUT = {
  quick: { windowSec: 0.25, cycles: 8, raceMs: 30_000 },
  full: { windowSec: 1, cycles: 6, raceMs: 120_000 },
} as const

/** Connections per server: enough to keep the store's round trips overlapping. */
const CONNECTIONS = 8

export const SECRET = 'authlab-bench-stores-suite-secret-32+'

const CANDIDATES = [
  { key: 'redis', label: 'single Redis', backend: redisStore },
  { key: 'redis-a/a', label: 'single Redis (A/A control)', backend: redisStore },
  { key: 'redis-cluster', label: 'Redis Cluster (3 masters + 3 replicas)', backend: redisClusterStore },
]
const KEYS = CANDIDATES.map((c) => c.key)
type Rounds = readonly (CycleWindows<string> | undefined)[]

/** One round: every store and server opened afresh, warmed, then cycles of one window per server. */
async function measureRound(
  users: UserDirectory,
  budget: (typeof THROUGHPUT)['quick' | 'full'],
  seed: number,
  round: number,
) {
  const opened: { close(): Promise<unknown> }[] = []
  try {
    const sources = new Map<string, LoadSource>()
    for (const candidate of CANDIDATES) {
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
    return await alternatingWindows(KEYS, budget.cycles, seed, round, (key) =>
      (sources.get(key) as LoadSource).window(budget.windowSec),
    )
  } finally {
    for (const resource of opened.reverse()) await resource.close().catch(() => {})
  }
}

const ratioOf = (rounds: Rounds, key: string): Ratio =>
  summarizeRatio(
    { against: 'redis', label: 'single Redis' },
    defined(rounds.map((r) => cycleRatio(r?.rates.get(key) ?? [], r?.rates.get('redis') ?? []))),
  )

function rowOf(candidate: (typeof CANDIDATES)[number], rounds: Rounds): SuiteRow {
  const perRound = rounds.flatMap((r) => {
    const clean = defined(r?.rates.get(candidate.key) ?? [])
    return clean.length > 0 ? [median(clean)] : []
  })
  const latencies = rounds.map((r) => r?.latenciesMs.get(candidate.key) ?? []).filter((l) => l.length > 0)
  const isBaseline = candidate.key === 'redis'
  return {
    group:
      'HTTP · single Redis vs Redis Cluster (express-session, save-before-reply, new session per request)',
    key: { setting: 'http', operation: 'request' },
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
    flags: isBaseline ? [{ kind: 'baseline' }] : candidate.key === 'redis-a/a' ? [{ kind: 'control' }] : [],
  }
}

/**
 * Single Redis against the Redis Cluster under HTTP load: express-session on each store, `GET /`
 * without a cookie (a new session and one store write per request). Each round opens every store and
 * server afresh, warms them, then runs cycles of one short window per server on kept-alive
 * connections, in a fresh order each cycle: a ratio compares windows of the same cycle, so the
 * machine's speed at that moment is in both. Single Redis is served twice, the second as the A/A
 * control. Rounds race while a ratio is undecided.
 */
export async function clusterThroughputRows(
  users: UserDirectory,
  ctx: SuiteContext,
  failed: (reason: string) => void,
) {
  const budget = THROUGHPUT[ctx.mode]
  const { seed } = ctx
  const rounds = await wholeRounds({
    budget: { rounds: ctx.budget.rounds, race: { maxRounds: 16, budgetMs: budget.raceMs } },
    seed,
    measure: (round) => measureRound(users, budget, seed, round),
    onError: (error) => failed(String(error)),
    ratios: (rounds) => KEYS.filter((key) => key !== 'redis').map((key) => ratioOf(rounds, key)),
  })
  return CANDIDATES.map((candidate) => rowOf(candidate, rounds))
}
