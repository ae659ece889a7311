import type { Budget } from '../types.js'

/**
 * Quick: every default suite in under 4 minutes on a 2-core box, with at least 5 rounds behind every
 * ratio (fewer print as undecided) and a wall-time allowance per suite for extra rounds where a ratio is
 * still undecided; the loops are budgeted in CPU time, so a slower machine (or a slow phase of a shared
 * one) takes longer. Full: publication runs, more and longer rounds, no caps.
 */
export const QUICK: Budget = {
  idRounds: 5,
  idSampling: { warmupMs: 40, sampleMs: 2, samples: 24 },
  heapIds: 50_000,
  // One measurement after a short warm-up: the measuring process has just timed the generator, so it
  // is already compiled; repeats cost seconds per slow generator in a run meant to last minutes.
  heapRepeats: 1,
  heapWarmup: 5_000,
  hashRounds: 5,
  hashRoundMs: 45,
  // A configuration whose warm call takes longer is left out of the quick run, and its notes say so:
  // calls of seconds (pure-JS scrypt at N=2^17) would take much of the suite's time for ratios the
  // cost-equalised scrypt setting (N=2^14 r=16) already gives.
  hashCallCapMs: 400,
  allSettings: false,
  settingVerifies: false,
  lagTimeMs: 150,
  lagMinHashes: 1,
  concurrencyRounds: 5,
  concurrencyCapMs: 400,
  concurrencyRoundMs: 250,
  stretchRounds: 5,
  // Short calls are batched by 20 ms and paired with their baseline's; a round must hold enough pairs
  // that one scheduling hiccup does not move its ratio. The chains' calls take longer than a round, so
  // this lengthens only the short rows' rounds.
  stretchRoundMs: 150,
  lagRounds: 5,
  // Allowances for extra rounds, 67 s at most over the six suites, keep a run within its 4 minutes. An
  // ids-in-fastify round lasts seconds, so its allowance is the largest: its in-framework claims need
  // a few rounds beyond the first five when the machine drifts.
  race: {
    maxRounds: 16,
    idsMs: 5_000,
    hashMs: 8_000,
    concurrencyMs: 8_000,
    stretchMs: 8_000,
    lagMs: 8_000,
    inFrameworkMs: 30_000,
  },
}

export const FULL: Budget = {
  idRounds: 20,
  idSampling: { warmupMs: 300, sampleMs: 5, samples: 60 },
  heapIds: 1_000_000,
  heapRepeats: 3,
  heapWarmup: 100_000,
  hashRounds: 15,
  hashRoundMs: 250,
  hashCallCapMs: Number.POSITIVE_INFINITY,
  allSettings: true,
  settingVerifies: true,
  lagTimeMs: 1_000,
  lagMinHashes: 3,
  concurrencyRounds: 10,
  concurrencyCapMs: Number.POSITIVE_INFINITY,
  concurrencyRoundMs: 1_500,
  stretchRounds: 10,
  stretchRoundMs: 250,
  lagRounds: 10,
  race: {
    maxRounds: 40,
    idsMs: 120_000,
    hashMs: 180_000,
    concurrencyMs: 120_000,
    stretchMs: 60_000,
    lagMs: 60_000,
    inFrameworkMs: 120_000,
  },
}

/**
 * The http suites' budgets. Quick: the ids-in-fastify suite in about a minute, the http suite's
 * both scenarios for both frameworks within a few minutes; full: publication length.
 * ids: per round one fresh server serving every candidate, warmed in `windowSec` windows until its rate
 * stops rising (at most `warmupSec`), then `windows` cycles of one `windowSec` window per candidate. Logins are
 * counted, not timed (see the login scenario); their servers get `warmupLogins` first.
 */
export interface HttpBudget {
  readonly rounds: number
  readonly warmupSec: number
  readonly windowSec: number
  readonly windows: number
  readonly loginRounds: number
  readonly loginSec: number
  readonly warmupLogins: number
}

export const HTTP_BUDGETS: { readonly quick: HttpBudget; readonly full: HttpBudget } = {
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
  },
}
