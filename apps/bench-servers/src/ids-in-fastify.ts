import { defineSuite } from '@authlab/benchmarks/harness'
import { HTTP_BUDGET, type HttpBudget, idsMethod } from './budget.js'
import { anyHasher, withHttpPlacement } from './placement.js'

/**
 * The generators @fastify/session's own measurement compared (it replaced uid-safe, express-session's
 * default, with a pooled randomBytes cache and measured about 13 % more req/s), plus authlab fast:
 * small enough for every quick run.
 */
const IN_FASTIFY = ['ref:fastify-session', 'ref:express-session', '@authlab/id-fast']

export const idsInFastifySuite = defineSuite<HttpBudget>({
  name: 'ids-in-fastify',
  order: 60,
  roundsAreProcesses: true,
  description:
    "Session-creating requests per second inside @fastify/session with its own default idGenerator, express-session's default (uid-safe) and authlab fast, in one fresh server per round alone on its core, in alternating windows, as per-round ratios to @fastify/session's default, with an A/A control.",
  baseline: "@fastify/session's default generator",
  budget: HTTP_BUDGET,
  method: idsMethod,
  run: (candidates, ctx) =>
    withHttpPlacement(ctx, async (placement, notes) => {
      const ids = IN_FASTIFY.flatMap((id) => candidates.ids.filter((c) => c.id === id))
      const missing = IN_FASTIFY.filter((id) => !ids.some((c) => c.id === id))
      if (missing.length > 0)
        notes.push(`Not served (filtered out or not discovered): ${missing.join(', ')}.`)
      ctx.progress.plan(2 * ctx.budget.rounds)
      const scenario = {
        framework: 'fastify',
        ids,
        baselines: IN_FASTIFY.slice(0, 2),
        control: true,
        hasher: anyHasher(candidates.hashers),
        budget: ctx.budget,
        placement,
      } as const
      // The servers and load tools load when the suite runs, not when the bench lists its suites.
      const { idsInFramework } = await import('./http/ids-scenario.js')
      return { rows: await idsInFramework(scenario, ctx), notes }
    }),
})
