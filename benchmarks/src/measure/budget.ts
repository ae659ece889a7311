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
  // One measurement after a short warm-up: the measuring process has just timed the generator, and
  // three of each, after 50,000 IDs of warm-up, took up to 4.5 s per slow generator.
  heapRepeats: 1,
  heapWarmup: 5_000,
  hashRounds: 5,
  hashRoundMs: 45,
  // A configuration whose warm call takes longer is left out of the quick run, and its notes say so: a
  // pure-JS scrypt at its N=2^17 defaults took 2.1–2.8 s a call and native scrypt there 0.5 s, a fifth
  // of the hash suite's time, for ratios the cost-equalised scrypt setting (N=2^14 r=16) already gives.
  hashCallCapMs: 400,
  allSettings: false,
  settingVerifies: false,
  lagTimeMs: 150,
  lagMinHashes: 1,
  concurrencyRounds: 5,
  concurrencyCapMs: 400,
  concurrencyRoundMs: 250,
  stretchRounds: 5,
  // Row [1]'s 4 ms calls are batched by 20 ms and paired with their baseline's: 45 ms rounds held two or
  // three pairs and spread Web Crypto ÷ node:crypto by ±3–6 % a round. The chains' calls take longer than
  // a round, so this lengthens only [1]'s rounds.
  stretchRoundMs: 150,
  lagRounds: 5,
  // Allowances for extra rounds, 67 s at most over the six suites, keep a run within its 4 minutes. An
  // ids-in-fastify round takes about 10 s, and its claims need 7-8 rounds when the machine drifts
  // (with 6, @fastify/session's default against express-session's went undecided in 1 of 3 runs).
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
    // 18 cycles of 0.1 s windows: a round's ratio spread ±2 % where 9 cycles of 0.15 s spread ±4 %, for
    // a few more seconds per round (same machine, minutes apart); 12 cycles spread ±4–6 %.
    windowSec: 0.1,
    windows: 18,
    loginRounds: 5,
    loginSec: 0.5,
    warmupLogins: 4,
  },
  full: {
    rounds: 10,
    warmupSec: 5,
    // Short windows, as quick, and twice the cycles. Five cycles of 1 s windows made a round's ratio the
    // median of five: ids-in-fastify's @fastify/session ÷ express-session read 1.13× [1.04–1.23] over 14
    // rounds in 404 s, and with these 1.14× [1.12–1.16] over 10 rounds in 178 s (same commit, an hour apart).
    windowSec: 0.1,
    windows: 36,
    loginRounds: 4,
    loginSec: 5,
    warmupLogins: 16,
  },
}
