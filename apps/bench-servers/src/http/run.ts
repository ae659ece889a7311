import {
  type Candidates,
  HTTP_CEILING as CEILING,
  ID_BASELINES,
  ID_CEILING,
  type SuiteContext,
  type SuiteRow,
} from '@authlab/benchmarks/harness'
import type { Framework } from '@authlab/servers'
import type { HttpBudget } from '../budget.js'
import { anyHasher, withHttpPlacement } from '../placement.js'
import { idsInFramework } from './ids-scenario.js'
import { loginEntries, loginScenario } from './login-scenario.js'
import type { Placement } from './servers.js'

const FRAMEWORKS: readonly Framework[] = ['express', 'fastify']

/**
 * What the http suite's ids rows are divided by: the ceiling and the defaults of the session layers it
 * serves (express-session, @fastify/session; better-auth's token). randomUUID (Koa's, h3's, Auth.js's),
 * randomUUIDv7 and @hono/session's generator are no default there, so here they are ordinary reference rows.
 */
const NOT_A_FRAMEWORK_DEFAULT = ['ref:randomUUID', 'ref:randomUUIDv7', 'ref:hono-session']
export const HTTP_ID_BASELINES: readonly string[] = [
  CEILING,
  ...ID_BASELINES.filter((id) => !NOT_A_FRAMEWORK_DEFAULT.includes(id)),
]

/** The http suite's run: ids in each framework, then logins per hasher. */
export function runHttp(candidates: Candidates, ctx: SuiteContext<HttpBudget>) {
  return withHttpPlacement(ctx, (placement, notes) => serve(candidates, ctx, placement, notes))
}

async function serve(
  candidates: Candidates,
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
