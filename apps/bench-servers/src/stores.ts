import { defineSuite } from '@authlab/benchmarks/harness'
import type { StoresBudget } from './budget.js'

export const storesSuite = defineSuite<StoresBudget>({
  name: 'stores',
  order: 80,
  roundsAreProcesses: true,
  onRequestOnly: true,
  description:
    'The store-compatibility matrix: every generator × real session store × express-session and @fastify/session, ID length limits, hostile cookies, and store.get/set latency per store.',
  baseline: 'none',
  // Quick runs the same checks with 200 concurrent sessions per cell instead of 1,000.
  budget: { quick: { rounds: 5, sessions: 200 }, full: { rounds: 7, sessions: 1000 } },
  method: (budget) =>
    `Every generator is served by express-session and @fastify/session over each real session store (${budget.sessions} concurrent sessions per cell), IDs of growing length find each store's limit, hostile cookies are sent, and store.get/set latency is read per store; single Redis (twice: the second is the A/A control) and the Redis Cluster are compared under HTTP load, each round opening every store and server afresh and running cycles of one short window per server in a fresh order, a ratio comparing windows of the same cycle.`,
  // The stores, servers and clients load when the suite runs, not when the bench lists its suites.
  run: async (candidates, ctx) => (await import('./stores/run.js')).runStores(candidates, ctx),
})
