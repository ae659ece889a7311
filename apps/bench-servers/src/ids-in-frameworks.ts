import { defaultCharts, defineSuite, type SuiteView } from '@authlab/benchmarks/harness'
import { IDS_IN_FRAMEWORKS_BUDGET, type IdsBudget, idsMethod } from './budget.js'
import { withHttpPlacement } from './placement.js'

const NAME = 'ids-in-frameworks'

/**
 * One chart of every server's ratios, authlab fast and the A/A control each against its framework's
 * own default, the framework and runtime in each bar's name: the question the suite answers is the same
 * in each server, so the answers sit side by side. Each server's table keeps its own group.
 */
const view: SuiteView = {
  charts: (rows) =>
    defaultCharts(
      NAME,
      rows.map((row) => ({
        ...row,
        group: 'every framework and runtime',
        label: `${row.label} · ${row.group}`,
      })),
    ),
}

const method = (budget: IdsBudget) =>
  `${idsMethod(budget)} Servers: Hono 4 with @hono/session (its generateId; the app is mounted at /session, so each request is GET /session) on Node (@hono/node-server), Bun (Bun.serve) and Deno (Deno.serve), and Koa 3 with koa-session on an external store (its genid) on Node: apps/frameworks' apps, served by its runtime-main entry with one app per generator over one in-memory store, the request's header choosing the app. Baseline: the framework's own default generator, called as the framework calls it; a runtime that does not start leaves its server out with the reason. Ratios are judged at ±10 %.`

export const idsInFrameworksSuite = defineSuite<IdsBudget>({
  name: NAME,
  order: 62,
  roundsAreProcesses: true,
  onRequestOnly: true,
  description:
    "Session-creating requests per second with each framework's own default session-ID generator against authlab fast: Hono with @hono/session on Node, Bun and Deno, and Koa with koa-session on Node, in one fresh server per round alone on its core, in alternating windows, as per-round ratios to the framework's default, with an A/A control.",
  baseline: "each framework's own default generator",
  budget: IDS_IN_FRAMEWORKS_BUDGET,
  view,
  method,
  run: (candidates, ctx) =>
    withHttpPlacement(ctx, async (placement, notes) => {
      // The servers and load tools load when the suite runs, not when the bench lists its suites.
      const { runIdsInFrameworks } = await import('./frameworks/ids-run.js')
      return { rows: await runIdsInFrameworks(candidates, ctx, placement, notes), notes }
    }),
})
