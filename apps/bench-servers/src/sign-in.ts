import { defineSuite, groupRows, pairChart, type SuiteView, slug } from '@authlab/benchmarks/harness'
import { SIGN_IN_BUDGET, type SignInBudget } from './budget.js'
import { withHttpPlacement } from './placement.js'

/**
 * Per runtime, each hasher's sign-ins/s beside its limit: a hasher's rate alone does not say whether
 * better-auth or the hash is the cost, its limit beside it does.
 */
const view: SuiteView = {
  columns: ['share of limit', 'limit sign-ins/s', 'single verify ms', 'server CPU ms/sign-in'],
  charts: (rows) =>
    [...groupRows(rows)].map(([group, list]) => ({
      name: slug(group),
      title: `${group}: sign-ins/s and the limit`,
      spec: pairChart(
        list,
        { title: `${group}: sign-ins/s`, axis: 'sign-ins/s (higher is better)' },
        { title: 'limit: cores ÷ single-verify time', axis: 'sign-ins/s' },
        'limit sign-ins/s',
      ),
    })),
}

const method = (budget: SignInBudget) =>
  `sign-in: better-auth 1.7 on Hono (apps/frameworks' app, better-auth's documented Hono mount), on PostgreSQL (a schema of its own per server, tables by better-auth's migrations), served by its runtime-main entry on Node (@hono/node-server) and Bun (Bun.serve), one server per hasher alone on the servers' core, without NODE_ENV (better-auth's rate limit is on only in production). A user signed up over HTTP signs in with the right password: POST /api/auth/sign-in/email on 4 connections, ${budget.rounds} rounds at least${budget.race ? ` (up to ${budget.race.maxRounds} while argon2id ÷ scrypt is undecided, within ${budget.race.budgetMs / 1000} s per runtime)` : ''}, each round every server once in a fresh random order, about ${budget.signInSec} s of sign-ins at its limit after ${budget.warmupSignIns} to warm it. Limit = cores ÷ one verify's ms, timed in the server before it serves (${budget.warmupSignIns} warm-ups, then at least 5 calls and 400 ms) with the hash function better-auth calls; share of limit = each clean round's rate ÷ that limit, and PostgreSQL's own CPU, outside the server's core, is not in it. Ratio = per round, argon2id's rate ÷ scrypt's of the same round (argon2id's second ratio, after its share of limit). Server CPU ms/sign-in from /proc (every thread).`

export const signInSuite = defineSuite<SignInBudget>({
  name: 'sign-in',
  order: 64,
  onRequestOnly: true,
  description:
    "Sign-ins per second of better-auth on Hono with @authlab/better-auth's argon2id (m=19456 t=2 p=1) against better-auth's own scrypt (N=2^14 r=16 p=1), on Node and Bun with PostgreSQL, each figure against its limit (cores ÷ CPU per verify).",
  baseline: "better-auth's default scrypt; the limit",
  budget: SIGN_IN_BUDGET,
  view,
  method,
  run: (_candidates, ctx) =>
    withHttpPlacement(ctx, async (placement, notes) => {
      // The servers, the database client and the load tool load when the suite runs.
      const { runSignIn } = await import('./frameworks/sign-in-run.js')
      return { rows: await runSignIn(ctx, placement, notes), notes }
    }),
})
