import {
  HTTP_CEILING as CEILING,
  defineSuite,
  ID_BASELINES,
  ID_CEILING,
  type SuiteContext,
  type SuiteRow,
} from '@authlab/benchmarks/harness'
import type { Framework } from '@authlab/servers'
import { HTTP_BUDGET, type HttpBudget } from './budget.js'
import { idsInFramework, idsMethod } from './http/ids-scenario.js'
import { loginEntries, loginScenario, PROBE_PER_SECOND } from './http/login-scenario.js'
import type { Placement } from './http/servers.js'
import { anyHasher, withHttpPlacement } from './placement.js'
import { view } from './view.js'

const FRAMEWORKS: readonly Framework[] = ['express', 'fastify']

/**
 * What the http suite's ids rows are divided by: the ceiling and the frameworks' defaults. randomUUID
 * and randomUUIDv7 are no framework's default, so here they are ordinary reference rows.
 */
const NOT_A_FRAMEWORK_DEFAULT = ['ref:randomUUID', 'ref:randomUUIDv7']
export const HTTP_ID_BASELINES: readonly string[] = [
  CEILING,
  ...ID_BASELINES.filter((id) => !NOT_A_FRAMEWORK_DEFAULT.includes(id)),
]

const loginMethod = (budget: HttpBudget) =>
  `login: ${budget.loginRounds} rounds of about ${budget.loginSec} s of logins at the limit, 4 connections, every hasher once per round in a fresh random order; limit = cores ÷ (the mean verify time in a fresh process on the servers' core + the server's own work per login: its CPU time per login, every thread, on a server of the same framework with no hash at all, INSECURE and bench-only); ratio = the per-round rates ÷ that limit; server CPU ms/login and core busy % are read from the server's /proc CPU time from the start of each round to its last counted answer (a request the load tool sent beyond the round's count is still served, after it); GET /health p99 and max = the latency of health checks sent meanwhile at a steady ${PROBE_PER_SECOND}/s, open loop (each sent when due, answered or not, and timed from when it was due).`

async function runHttp(
  candidates: Parameters<Parameters<typeof defineSuite<HttpBudget>>[0]['run']>[0],
  ctx: SuiteContext<HttpBudget>,
  placement: Placement,
  notes: string[],
) {
  const budget = ctx.budget
  // Login servers need some generator: the first package, not a ref.
  const loginGenerator = candidates.ids.find((c) => !c.id.startsWith('ref:'))?.id ?? CEILING
  notes.push(`Login servers generate IDs with ${loginGenerator}.`)
  // The servers refuse a generator that repeats its IDs (one session for every visitor), so the ids
  // suite's constant flat-string ceiling is not served; the counter is the ceiling here.
  const served = candidates.ids.filter((c) => c.id !== ID_CEILING)
  if (served.length < candidates.ids.length) notes.push(`${ID_CEILING} not served: it repeats one ID.`)
  if (!candidates.ids.some((c) => c.id === CEILING)) notes.push(`${CEILING} filtered out: no ceiling ratio.`)
  const entries = await loginEntries(
    candidates.hashers,
    ctx.mode === 'full',
    loginGenerator,
    budget,
    placement,
  )
  // Per framework: a warm-up and a cycle step per ids round, the no-hash server, the login rounds.
  ctx.progress.plan(FRAMEWORKS.length * (2 * budget.rounds + 1 + budget.loginRounds * entries.length))
  const rows: SuiteRow[] = []
  const hasher = anyHasher(candidates.hashers)
  for (const framework of FRAMEWORKS) {
    const scenario = {
      framework,
      ids: served,
      baselines: HTTP_ID_BASELINES,
      control: true,
      hasher,
      budget,
      placement,
    }
    rows.push(...(await idsInFramework(scenario, ctx)))
  }
  for (const framework of FRAMEWORKS)
    rows.push(...(await loginScenario(framework, entries, loginGenerator, placement, ctx)))
  return { rows, notes }
}

export const httpSuite = defineSuite<HttpBudget>({
  name: 'http',
  order: 70,
  onRequestOnly: true,
  description:
    'Every generator inside express-session and @fastify/session in alternating short windows on kept-alive connections (req/s as a ratio to the unique-counter ceiling), and logins/s per hasher at equal cost under autocannon with the p99 of GET /health measured meanwhile.',
  baseline: 'the unique-counter ceiling; the login limit',
  budget: HTTP_BUDGET,
  view,
  method: (budget) => [idsMethod(budget), loginMethod(budget)].join(' '),
  run: (candidates, ctx) =>
    withHttpPlacement(ctx, (placement, notes) => runHttp(candidates, ctx, placement, notes)),
})
