import type { RoundsBudget } from '@authlab/benchmarks/harness'

/**
 * The ids-in-framework scenario: per round a fresh server, warmed in `windowSec` windows until its rate
 * stops rising (at most `warmupSec`), then `windows` cycles of one window per candidate.
 */
export interface IdsBudget extends RoundsBudget {
  readonly warmupSec: number
  readonly windowSec: number
  readonly windows: number
}

/** The http suite: the ids scenario, then login rounds; login servers get `warmupLogins` first. */
export interface HttpBudget extends IdsBudget {
  readonly loginRounds: number
  readonly loginSec: number
  readonly warmupLogins: number
}

export const HTTP_BUDGET: { readonly quick: HttpBudget; readonly full: HttpBudget } = {
  quick: {
    rounds: 5,
    warmupSec: 3,
    // Many short windows per round: a round's ratio is a median over cycles, so more cycles narrow
    // its spread, and short windows keep a drift of the machine from landing on one candidate.
    windowSec: 0.1,
    windows: 18,
    loginRounds: 5,
    loginSec: 0.5,
    warmupLogins: 4,
    // A server round lasts seconds, so this allowance is the largest: the in-framework claims need a
    // few rounds beyond the first five when the machine drifts; a round with its server's start and
    // warm-up takes about 10 s, so this buys two or three.
    race: { maxRounds: 16, budgetMs: 30_000 },
  },
  full: {
    rounds: 10,
    warmupSec: 5,
    // Short windows, as quick, and twice the cycles: a round's ratio is the median of many cycles
    // rather than of a few long windows, which narrows it more per second spent.
    windowSec: 0.1,
    windows: 36,
    loginRounds: 4,
    loginSec: 5,
    warmupLogins: 16,
    race: { maxRounds: 16, budgetMs: 120_000 },
  },
}

/** How ids-in-framework measures, for --explain and the results file. */
export function idsMethod(budget: IdsBudget) {
  return `ids-in-framework: every round starts one fresh server on the servers' core that serves every candidate's generator, picked per request by a header (each GET / stores a session, and the store starts empty each round: a store's size moves the rate more than any generator does); it is loaded in ${budget.windowSec} s windows on 50 kept-alive connections until two windows in a row agree within 10 % (at most ${budget.warmupSec} s: a fresh server speeds up for about 1.5 s), then ${budget.windows} cycles of one ${budget.windowSec} s window per candidate, in a fresh random order each cycle; ${budget.rounds} rounds at least${budget.race ? ' (more, up to the race budget, while a ratio is undecided)' : ''}. Value = median over rounds of each round's median window req/s; ratio = per round, the median over cycles of the candidate's window ÷ the baseline's of the same cycle.`
}

/** Health checks per second while logins run: a few per cent of the servers' core (see probe.ts). */
export const PROBE_PER_SECOND = 200

/** The stores suite: concurrent sessions per cell, and the cluster comparison's minimum rounds. */
export interface StoresBudget extends RoundsBudget {
  readonly sessions: number
}

/**
 * ids-in-frameworks: four servers (Hono on Node, Bun and Deno, Koa on Node), each the ids scenario with
 * two generators and an A/A control, at ids-in-fastify's quick windows (18 cycles of 0.1 s after at
 * most 3 s of warm-up) and 20 s per server for rounds beyond the fifth: about four minutes for the
 * four. With 12 cycles and 2 s of warm-up a round's ratio moved ±10 % (A/A 0.94–1.35 in Deno): a
 * round's ratio is a median over cycles, and these servers' windows vary more than fastify's.
 */
export const IDS_IN_FRAMEWORKS_BUDGET: { readonly quick: IdsBudget; readonly full: IdsBudget } = {
  quick: { rounds: 5, warmupSec: 3, windowSec: 0.1, windows: 18, race: { maxRounds: 12, budgetMs: 20_000 } },
  full: { rounds: 10, warmupSec: 5, windowSec: 0.1, windows: 36, race: { maxRounds: 16, budgetMs: 120_000 } },
}

/** sign-in: rounds of about `signInSec` of sign-ins per hasher at its limit, after `warmupSignIns`. */
export interface SignInBudget extends RoundsBudget {
  readonly signInSec: number
  readonly warmupSignIns: number
}

/**
 * Quick: 5 rounds of about 0.8 s per hasher and runtime (a sign-in costs 10–50 ms of one core, so a
 * round holds 16–80 of them), and 15 s per runtime for rounds beyond the fifth while argon2id ÷ scrypt
 * is undecided: about a minute for both runtimes with their starts.
 */
export const SIGN_IN_BUDGET: { readonly quick: SignInBudget; readonly full: SignInBudget } = {
  quick: { rounds: 5, signInSec: 0.8, warmupSignIns: 8, race: { maxRounds: 10, budgetMs: 15_000 } },
  full: { rounds: 10, signInSec: 3, warmupSignIns: 20, race: { maxRounds: 16, budgetMs: 60_000 } },
}
