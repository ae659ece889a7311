import { defineSuite } from '@authlab/benchmarks/harness'
import { HTTP_BUDGET, type HttpBudget, idsMethod, PROBE_PER_SECOND } from './budget.js'
import { view } from './view.js'

const loginMethod = (budget: HttpBudget) =>
  `login: ${budget.loginRounds} rounds of about ${budget.loginSec} s of logins at the limit, 4 connections, every hasher once per round in a fresh random order; limit = cores ÷ (the mean verify time in a fresh process on the servers' core + the server's own work per login: its CPU time per login, every thread, on a server of the same framework with no hash at all, INSECURE and bench-only); ratio = the per-round rates ÷ that limit; server CPU ms/login and core busy % are read from the server's /proc CPU time from the start of each round to its last counted answer (a request the load tool sent beyond the round's count is still served, after it); GET /health p99 and max = the latency of health checks sent meanwhile at a steady ${PROBE_PER_SECOND}/s, open loop (each sent when due, answered or not, and timed from when it was due).`

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
  // The servers, stores and load tools load when the suite runs, not when the bench lists its suites.
  run: async (candidates, ctx) => (await import('./http/run.js')).runHttp(candidates, ctx),
})
