import type { PasswordHasher } from '@authlab/core'
import type { Framework } from '@authlab/servers'
import { FULL } from '../budget.js'
import { load, startLoad } from '../http/load.js'
import { hasTaskset, pin, type ServerProcess, startServerProcesses, unpin } from '../http/process.js'
import {
  interleavedRounds,
  median,
  type RoundSample,
  type RoundSummary,
  summarizeRounds,
} from '../http/rounds.js'
import { BENCH_USER, type ServerSpec } from '../http/spec.js'
import { measureAsync } from '../measure.js'
import { BENCH_PASSWORD, COST_SETTINGS, type CostSetting, instantiate } from '../settings.js'
import type { Candidates, HashCandidate, IdCandidate, Row, Suite, SuiteContext } from '../types.js'

const FRAMEWORKS: readonly Framework[] = ['express', 'fastify']
const CEILING = 'ref:counter'

/** Quick: both scenarios for both frameworks in about 3 minutes; full: publication length (issue 5). */
export const HTTP_BUDGETS = {
  quick: { rounds: 3, idsSec: 1, loginRounds: 2, loginSec: 2, warmupRequests: 1_000, warmupLogins: 4 },
  full: { rounds: 6, idsSec: 5, loginRounds: 6, loginSec: 10, warmupRequests: 20_000, warmupLogins: 16 },
} as const
type HttpBudget = (typeof HTTP_BUDGETS)[keyof typeof HTTP_BUDGETS]

/** Where the servers run: CPU 0 with taskset, the load generator on CPU 1; undefined = unpinned. */
interface Placement {
  readonly serverCpu: number | undefined
  readonly serverCores: number
}

interface LoginEntry {
  readonly candidate: HashCandidate
  readonly setting: CostSetting
  readonly hasher: PasswordHasher
  /** The stored hash the single-verify timing checks against. */
  readonly encoded: string
}

/** Results files hold numbers only; a figure without a clean round is 0, and its row is flagged. */
function finite(value: number): number {
  return Number.isFinite(value) ? value : 0
}

function spreadFields(summary: RoundSummary): Record<string, number> {
  return {
    min: finite(summary.min),
    max: finite(summary.max),
    'spread %': finite(summary.spreadPct),
    'clean rounds': summary.cleanRounds,
    'marked rounds': summary.markedRounds,
    'errors+timeouts+non-2xx': summary.failures,
  }
}

function roundFlags(summary: RoundSummary): string[] {
  const flags =
    summary.markedRounds > 0 ? [`${summary.markedRounds} round(s) with errors/timeouts/non-2xx left out`] : []
  return summary.cleanRounds === 0 ? [...flags, 'no clean round: no figure'] : flags
}

/** Half the min–max range of the per-round ratios, relative to their median, in percent. */
function ratioSpread(ratios: readonly number[]): number {
  const mid = median(ratios)
  return ratios.length > 1 ? ((Math.max(...ratios) - Math.min(...ratios)) / 2 / mid) * 100 : 0
}

/** A candidate's server and what its rounds measured. */
interface Run<T> {
  readonly candidate: T
  readonly server: ServerProcess
  readonly samples: RoundSample[]
  /** Per-round ratio to a baseline of the same round (ids) or per-round GET /health p99 (login). */
  readonly perRound: number[]
}

/** Starts one server per candidate, runs `body` over them, and stops every server whatever happens. */
async function withServers<T>(
  candidates: readonly T[],
  spec: (candidate: T) => ServerSpec,
  cpu: number | undefined,
  body: (runs: readonly Run<T>[]) => Promise<void>,
): Promise<Run<T>[]> {
  const servers = await startServerProcesses(candidates.map(spec), cpu)
  const runs = candidates.map((candidate, i) => ({
    candidate,
    server: servers[i] as ServerProcess,
    samples: [],
    perRound: [],
  }))
  try {
    await body(runs)
  } finally {
    await Promise.all(servers.map((server) => server.stop()))
  }
  return runs
}

/** ids-in-framework: GET / without a cookie, so every request generates an ID and stores a session. */
async function idsInFramework(
  framework: Framework,
  candidates: Candidates,
  budget: HttpBudget,
  placement: Placement,
  ctx: SuiteContext,
): Promise<Row[]> {
  const hasher = candidates.hashers[0]?.id ?? ''
  const spec = (c: IdCandidate) => ({ framework, generator: c.id, hasher })
  const runs = await withServers(candidates.ids, spec, placement.serverCpu, async (runs) => {
    // Discarded warm-up: JIT, connection setup, first allocations of the session store.
    for (const run of runs)
      await load(run.server.url, { path: '/', connections: 50, amount: budget.warmupRequests })
    for (const order of interleavedRounds(runs, budget.rounds)) {
      for (const run of order) {
        ctx.progress.step(`${framework} ids · ${run.candidate.label}`)
        const result = await load(run.server.url, { path: '/', connections: 50, durationSec: budget.idsSec })
        run.samples.push({ value: result.requestsPerSec, failures: result.failures })
      }
      const ceiling = runs.find((run) => run.candidate.id === CEILING)?.samples.at(-1)
      for (const run of runs) {
        const sample = run.samples.at(-1)
        if (ceiling?.failures === 0 && sample?.failures === 0) run.perRound.push(sample.value / ceiling.value)
      }
    }
  })
  return runs.map(({ candidate, samples, perRound }) => {
    const summary = summarizeRounds(samples)
    return {
      suite: 'http',
      group: `ids-in-framework · ${framework}`,
      candidate: candidate.id,
      label: candidate.label,
      value: finite(summary.median),
      unit: 'req/s',
      higherIsBetter: true,
      samples: summary.cleanRounds,
      ratios:
        perRound.length > 0
          ? [{ baseline: CEILING, value: median(perRound), rme: ratioSpread(perRound) }]
          : [],
      details: spreadFields(summary),
      flags: [
        ...(candidate.id === CEILING ? ['ceiling (INSECURE, bench-only)'] : []),
        ...roundFlags(summary),
      ],
    }
  })
}

/** Every hasher at each cost-equalised setting it implements (quick: one setting per algorithm family). */
async function loginEntries(hashers: readonly HashCandidate[], full: boolean): Promise<LoginEntry[]> {
  const entries: LoginEntry[] = []
  for (const setting of COST_SETTINGS.filter((s) => full || s.quick)) {
    for (const candidate of hashers) {
      const hasher = instantiate(candidate, setting)
      if (hasher) entries.push({ candidate, setting, hasher, encoded: await hasher.hash(BENCH_PASSWORD) })
    }
  }
  return entries
}

/** login: POST /login back to back while a second autocannon probes GET /health on one connection. */
async function loginScenario(
  framework: Framework,
  entries: readonly LoginEntry[],
  ids: Candidates['ids'],
  budget: HttpBudget,
  placement: Placement,
  ctx: SuiteContext,
): Promise<Row[]> {
  const generator = ids.find((c) => c.id !== CEILING)?.id ?? CEILING
  const spec = (e: LoginEntry) => ({ framework, generator, hasher: e.candidate.id, setting: e.setting.label })
  const body = JSON.stringify({ username: BENCH_USER, password: BENCH_PASSWORD })
  // The limit a server on `serverCores` cores reaches if hashing is all it does: cores ÷ single-hash time.
  // Timed first, in this process, on the same CPU model; it also sizes each round.
  const limits = new Map<LoginEntry, { singleMs: number; perSec: number; logins: number }>()
  for (const e of entries) {
    const single = await measureAsync(() => e.hasher.verify(e.encoded, BENCH_PASSWORD), {
      timeMs: 100,
      minSamples: 3,
      warmupMs: 0,
      warmupSamples: 1,
    })
    const perSec = (placement.serverCores * 1000) / single.mean
    // A fixed number of logins, about `loginSec` at the limit, so a slow hasher still completes several
    // (a fixed-time window counted whole hashes, and none at all for a 500 ms hash).
    limits.set(e, {
      singleMs: single.mean,
      perSec,
      logins: Math.max(4, Math.round(perSec * budget.loginSec)),
    })
  }
  const limitOf = (e: LoginEntry) => limits.get(e) as { singleMs: number; perSec: number; logins: number }
  const runs = await withServers(entries, spec, placement.serverCpu, async (runs) => {
    for (const run of runs) {
      await load(run.server.url, {
        path: '/login',
        method: 'POST',
        body,
        connections: 4,
        amount: budget.warmupLogins,
      })
    }
    for (const order of interleavedRounds(runs, budget.loginRounds)) {
      for (const run of order) {
        ctx.progress.step(
          `${framework} login · ${run.candidate.candidate.label} @ ${run.candidate.setting.label}`,
        )
        const probe = startLoad(run.server.url, { path: '/health', connections: 1 })
        // 4 connections: enough to keep libuv's 4 threads busy for the offloading hashers.
        const login = await load(run.server.url, {
          path: '/login',
          method: 'POST',
          body,
          connections: 4,
          amount: limitOf(run.candidate).logins,
        })
        const health = await probe.finish()
        // A probe that got no answer at all saw the event loop blocked for the whole round: its p99 would
        // read 0, so the round is marked instead.
        const failures = login.failures + health.failures + (health.total === 0 ? 1 : 0)
        run.samples.push({ value: login.requestsPerSec, failures })
        if (failures === 0) run.perRound.push(health.p99Ms)
      }
    }
  })
  const rows: Row[] = []
  for (const { candidate: e, samples, perRound } of runs) {
    const limit = limitOf(e)
    const summary = summarizeRounds(samples)
    rows.push({
      suite: 'http',
      group: `login · ${framework} · ${e.setting.label}`,
      candidate: e.candidate.id,
      label: e.candidate.label,
      value: finite(summary.median),
      unit: 'logins/s',
      higherIsBetter: true,
      samples: summary.cleanRounds,
      ratios: [
        {
          baseline: 'cores ÷ single-hash time',
          value: finite(summary.median / limit.perSec),
          rme: finite(summary.spreadPct / 2),
        },
      ],
      details: {
        'GET /health p99 ms': finite(median(perRound)),
        'limit logins/s': limit.perSec,
        'single verify ms': limit.singleMs,
        'logins per round': limit.logins,
        ...spreadFields(summary),
      },
      flags: roundFlags(summary),
    })
  }
  return rows
}

export const httpSuite: Suite = {
  name: 'http',
  onRequestOnly: true,
  description:
    'Every generator inside express-session and @fastify/session under autocannon (req/s as a ratio to the unique-counter ceiling), and logins/s per hasher at equal cost with the p99 of GET /health measured meanwhile.',
  async run(candidates, ctx) {
    const budget = ctx.budget === FULL ? HTTP_BUDGETS.full : HTTP_BUDGETS.quick
    const notes: string[] = []
    const entries = await loginEntries(candidates.hashers, ctx.budget === FULL)
    ctx.progress.plan(
      FRAMEWORKS.length * (budget.rounds * candidates.ids.length + budget.loginRounds * entries.length),
    )
    const pinned = ctx.cores >= 2 && hasTaskset() && pin(1)
    const placement: Placement = pinned
      ? { serverCpu: 0, serverCores: 1 }
      : { serverCpu: undefined, serverCores: ctx.cores }
    notes.push(
      pinned
        ? 'Each server process pinned to CPU 0 and autocannon (this process) to CPU 1 with taskset.'
        : 'taskset unavailable (or one core): servers and autocannon share the cores; figures are lower and noisier.',
      `Interleaved rounds (A B C … C B A) after a discarded warm-up: ids ${budget.rounds} × ${budget.idsSec} s, login ${budget.loginRounds} × ${budget.loginSec} s; value = median of the clean rounds, ratio ± half its per-round min–max range.`,
      `ids-in-framework servers verify logins with ${candidates.hashers[0]?.id ?? 'no hasher'} (unused by GET /); login servers generate IDs with the first non-reference generator.`,
    )
    if (!candidates.ids.some((c) => c.id === CEILING))
      notes.push(`${CEILING} filtered out: no ceiling ratio.`)
    try {
      const rows: Row[] = []
      for (const framework of FRAMEWORKS)
        rows.push(...(await idsInFramework(framework, candidates, budget, placement, ctx)))
      for (const framework of FRAMEWORKS) {
        rows.push(...(await loginScenario(framework, entries, candidates.ids, budget, placement, ctx)))
      }
      return { rows, notes }
    } finally {
      if (pinned) unpin(ctx.cores)
    }
  },
}
