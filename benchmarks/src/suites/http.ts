import type { Framework } from '@authlab/servers'
import { HTTP_CEILING as CEILING, ID_BASELINES, ID_CEILING } from '../discover/baselines.js'
import { pinProcess } from '../measure/placement.js'
import type { Candidates, HttpBudget, Suite, SuiteContext, SuiteResult, SuiteRow } from '../types.js'
import { idsInFramework } from './http/ids-scenario.js'
import { loginEntries, loginScenario, PROBE_PER_SECOND } from './http/login-scenario.js'
import type { Placement } from './http/servers.js'

const FRAMEWORKS: readonly Framework[] = ['express', 'fastify']

/**
 * Runs `body` with the servers' placement: each server process on CPU 0 and this process, the load
 * generator, on the measure core, with taskset and two cores or more (else shared, and said so).
 */
async function withHttpPlacement(
  ctx: SuiteContext,
  body: (placement: Placement, notes: string[]) => Promise<SuiteResult>,
): Promise<SuiteResult> {
  const pinned = pinProcess()
  const placement: Placement = pinned
    ? { serverCpu: pinned.first, serverCores: 1 }
    : { serverCpu: undefined, serverCores: ctx.cores }
  const notes = [
    pinned
      ? `Servers pinned to CPU ${pinned.first}, the load generator (this process) to CPU ${pinned.last} (taskset).`
      : 'taskset unavailable (or one core allowed): servers and the load generator share the cores; figures are lower and noisier.',
  ]
  try {
    return await body(placement, notes)
  } finally {
    pinned?.release()
  }
}

/**
 * What the http suite's ids rows are divided by: the ceiling and the frameworks' defaults. randomUUID
 * and randomUUIDv7 are no framework's default, so here they are ordinary reference rows.
 */
const NOT_A_FRAMEWORK_DEFAULT = ['ref:randomUUID', 'ref:randomUUIDv7']
export const HTTP_ID_BASELINES: readonly string[] = [
  CEILING,
  ...ID_BASELINES.filter((id) => !NOT_A_FRAMEWORK_DEFAULT.includes(id)),
]

/** What a server needs besides its generator: ids servers never verify, so any hasher does. */
const anyHasher = (candidates: Candidates) => candidates.hashers[0]?.id ?? ''

function idsMethod(budget: HttpBudget) {
  return `ids-in-framework: every round starts one fresh server on the servers' core that serves every candidate's generator, picked per request by a header (each GET / stores a session, and the store starts empty each round: a store's size moves the rate more than any generator does); it is loaded in ${budget.windowSec} s windows on 50 kept-alive connections until two windows in a row agree within 10 % (at most ${budget.warmupSec} s: a fresh server speeds up for about 1.5 s), then ${budget.windows} cycles of one ${budget.windowSec} s window per candidate, in a fresh random order each cycle; ${budget.rounds} rounds at least${budget.race ? ' (more, up to the race budget, while a ratio is undecided)' : ''}. Value = median over rounds of each round's median window req/s; ratio = per round, the median over cycles of the candidate's window ÷ the baseline's of the same cycle.`
}

export const httpSuite: Suite = {
  name: 'http',
  onRequestOnly: true,
  description:
    'Every generator inside express-session and @fastify/session in alternating short windows on kept-alive connections (req/s as a ratio to the unique-counter ceiling), and logins/s per hasher at equal cost under autocannon with the p99 of GET /health measured meanwhile.',
  method: ({ http: budget }) =>
    [
      idsMethod(budget),
      `login: ${budget.loginRounds} rounds of about ${budget.loginSec} s of logins at the limit, 4 connections, every hasher once per round in a fresh random order; limit = cores ÷ (the mean verify time in a fresh process on the servers' core + the server's own work per login: its CPU time per login, every thread, on a server of the same framework with no hash at all, INSECURE and bench-only); ratio = the per-round rates ÷ that limit; server CPU ms/login and core busy % are read from the server's /proc CPU time from the start of each round to its last counted answer (a request the load tool sent beyond the round's count is still served, after it); GET /health p99 and max = the latency of health checks sent meanwhile at a steady ${PROBE_PER_SECOND}/s, open loop (each sent when due, answered or not, and timed from when it was due).`,
    ].join(' '),
  run: (candidates, ctx) =>
    withHttpPlacement(ctx, async (placement, notes) => {
      const budget = ctx.budget.http
      // Login servers need some generator: the first package, not a ref.
      const loginGenerator = candidates.ids.find((c) => !c.id.startsWith('ref:'))?.id ?? CEILING
      notes.push(`Login servers generate IDs with ${loginGenerator}.`)
      // The servers refuse a generator that repeats its IDs (one session for every visitor), so the ids
      // suite's constant flat-string ceiling is not served; the counter is the ceiling here.
      const served = candidates.ids.filter((c) => c.id !== ID_CEILING)
      if (served.length < candidates.ids.length) notes.push(`${ID_CEILING} not served: it repeats one ID.`)
      if (!candidates.ids.some((c) => c.id === CEILING))
        notes.push(`${CEILING} filtered out: no ceiling ratio.`)
      const full = ctx.budget.mode === 'full'
      const entries = await loginEntries(candidates.hashers, full, loginGenerator, budget, placement)
      // Per framework: a warm-up and a cycle step per ids round, the no-hash server, the login rounds.
      ctx.progress.plan(FRAMEWORKS.length * (2 * budget.rounds + 1 + budget.loginRounds * entries.length))
      const rows: SuiteRow[] = []
      for (const framework of FRAMEWORKS) {
        const scenario = { framework, ids: served, baselines: HTTP_ID_BASELINES, control: true }
        rows.push(
          ...(await idsInFramework(
            { ...scenario, hasher: anyHasher(candidates), budget, placement },
            ctx,
            notes,
          )),
        )
      }
      for (const framework of FRAMEWORKS)
        rows.push(...(await loginScenario(framework, entries, loginGenerator, budget, placement, ctx)))
      return { rows, notes }
    }),
}

/**
 * The generators @fastify/session's own measurement compared (it replaced uid-safe, express-session's
 * default, with a pooled randomBytes cache and measured about 13 % more req/s), plus authlab fast:
 * small enough for every quick run.
 */
const IN_FASTIFY = ['ref:fastify-session', 'ref:express-session', '@authlab/id-fast']

export const idsInFastifySuite: Suite = {
  name: 'ids-in-fastify',
  roundsAreProcesses: true,
  description:
    "Session-creating requests per second inside @fastify/session with its own default idGenerator, express-session's default (uid-safe) and authlab fast, in one fresh server per round alone on its core, in alternating windows, as per-round ratios to @fastify/session's default, with an A/A control.",
  method: ({ http: budget }) => idsMethod(budget),
  run: (candidates, ctx) =>
    withHttpPlacement(ctx, async (placement, notes) => {
      const budget = ctx.budget.http
      const ids = IN_FASTIFY.flatMap((id) => candidates.ids.filter((c) => c.id === id))
      const missing = IN_FASTIFY.filter((id) => !ids.some((c) => c.id === id))
      if (missing.length > 0)
        notes.push(`Not served (filtered out or not discovered): ${missing.join(', ')}.`)
      ctx.progress.plan(2 * budget.rounds)
      const rows = await idsInFramework(
        {
          framework: 'fastify',
          ids,
          baselines: IN_FASTIFY.slice(0, 2),
          control: true,
          hasher: anyHasher(candidates),
          budget,
          placement,
        },
        ctx,
        notes,
      )
      return { rows, notes }
    }),
}
