import type { Framework } from '@authlab/servers'
import { HTTP_CEILING as CEILING, ID_CEILING } from '../discover/baselines.js'
import { FULL, HTTP_BUDGETS } from '../measure/budget.js'
import type { Suite, SuiteRow } from '../types.js'
import { idsInFramework } from './http/ids-scenario.js'
import { loginEntries, loginScenario, PROBE_PER_SECOND } from './http/login-scenario.js'
import type { Placement } from './http/servers.js'
import { hasTaskset, pin, unpin } from './http/servers.js'

const FRAMEWORKS: readonly Framework[] = ['express', 'fastify']

export const httpSuite: Suite = {
  name: 'http',
  onRequestOnly: true,
  description:
    'Every generator inside express-session and @fastify/session under autocannon (req/s as a ratio to the unique-counter ceiling), and logins/s per hasher at equal cost with the p99 of GET /health measured meanwhile.',
  async run(candidates, ctx) {
    const budget = ctx.budget === FULL ? HTTP_BUDGETS.full : HTTP_BUDGETS.quick
    const pinned = ctx.cores >= 2 && hasTaskset() && pin(1)
    const placement: Placement = pinned
      ? { serverCpu: 0, serverCores: 1 }
      : { serverCpu: undefined, serverCores: ctx.cores }
    // ids servers never verify a password; login servers need some generator: the first package, not a ref.
    const idsHasher = candidates.hashers[0]?.id ?? ''
    const loginGenerator = candidates.ids.find((c) => !c.id.startsWith('ref:'))?.id ?? CEILING
    const notes = [
      pinned
        ? 'Each server process pinned to CPU 0 and autocannon (this process) to CPU 1 with taskset.'
        : 'taskset unavailable (or one core): servers and autocannon share the cores; figures are lower and noisier.',
      `ids-in-framework: a fresh server alone on its core for every measurement (each GET / stores a session, and a grown store made the largest difference between rounds), ${budget.warmupSec} s discarded warm-up, then ${budget.rounds} interleaved rounds (A B C … C B A) of ${budget.idsSec} s on 50 connections; value = median req/s of the clean rounds; ratio = mean of the per-round ratios to ${CEILING} ± its 95 % t-interval, and the ≥ 98 % goal is called only when that whole interval lies on one side.`,
      `login: ${budget.loginRounds} interleaved rounds of about ${budget.loginSec} s of logins at the limit, 4 connections; limit = cores ÷ the mean verify time in a fresh process on the servers' core; ratio = median of the per-round rates ÷ that limit with its 95 % bootstrap interval; GET /health p99 and max = the latency of health checks sent meanwhile at a steady ${PROBE_PER_SECOND}/s, open loop (each sent when due, answered or not, and timed from when it was due).`,
      `Login servers generate IDs with ${loginGenerator}.`,
    ]
    // The servers refuse a generator that repeats its IDs (one session for every visitor), so the ids
    // suite's constant flat-string ceiling is not served; the counter is the ceiling here.
    const served = candidates.ids.filter((c) => c.id !== ID_CEILING)
    if (served.length < candidates.ids.length) notes.push(`${ID_CEILING} not served: it repeats one ID.`)
    if (!candidates.ids.some((c) => c.id === CEILING))
      notes.push(`${CEILING} filtered out: no ceiling ratio.`)
    try {
      const full = ctx.budget === FULL
      const entries = await loginEntries(candidates.hashers, full, loginGenerator, budget, placement)
      ctx.progress.plan(
        FRAMEWORKS.length * (budget.rounds * served.length + budget.loginRounds * entries.length),
      )
      const rows: SuiteRow[] = []
      for (const framework of FRAMEWORKS)
        rows.push(...(await idsInFramework(framework, served, idsHasher, budget, placement, ctx)))
      for (const framework of FRAMEWORKS)
        rows.push(...(await loginScenario(framework, entries, loginGenerator, budget, placement, ctx)))
      return { rows, notes }
    } finally {
      if (pinned) unpin(ctx.cores)
    }
  },
}
