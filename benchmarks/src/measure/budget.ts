import type { Budget } from '../types.js'

/**
 * Quick: every default suite in about 3 minutes on a 2-core box, with at least 5 rounds behind every
 * ratio (fewer print as undecided); the loops are budgeted in CPU time, so a slower machine (or a slow
 * phase of a shared one) takes longer. Full: publication runs, more and longer rounds, no caps.
 */
export const QUICK: Budget = {
  idRounds: 5,
  idSampling: { warmupMs: 40, sampleMs: 2, samples: 24 },
  heapIds: 50_000,
  hashRounds: 5,
  hashRoundMs: 60,
  // A pure-JS scrypt at its N=2^17 defaults takes 2.8 s a call here: with its native partner, a third of
  // the suite's time, for a ratio the cost-equalised N=2^15 row already gives.
  hashCallCapMs: 1_000,
  allSettings: false,
  lagTimeMs: 150,
  lagMinHashes: 2,
  concurrencyRounds: 5,
  concurrencyCapMs: 600,
  stretchRounds: 5,
  lagRounds: 5,
  race: { maxRounds: 16, idsMs: 25_000, hashMs: 35_000, concurrencyMs: 20_000, stretchMs: 10_000 },
}

export const FULL: Budget = {
  idRounds: 20,
  idSampling: { warmupMs: 300, sampleMs: 5, samples: 60 },
  heapIds: 1_000_000,
  hashRounds: 15,
  hashRoundMs: 250,
  hashCallCapMs: Number.POSITIVE_INFINITY,
  allSettings: true,
  lagTimeMs: 1_000,
  lagMinHashes: 3,
  concurrencyRounds: 10,
  concurrencyCapMs: Number.POSITIVE_INFINITY,
  stretchRounds: 10,
  lagRounds: 10,
  race: { maxRounds: 40, idsMs: 120_000, hashMs: 180_000, concurrencyMs: 120_000, stretchMs: 60_000 },
}

/**
 * The http suite's budgets. Quick: both scenarios for both frameworks within about 4 minutes; full:
 * publication length.
 * Seconds are wall time per measured round; logins are counted, not timed (see the login scenario).
 * Warm-up: a fresh express server was still speeding up after 1 s (6.3 k req/s in the second after a 3 s
 * warm-up, 5.5 k after 1 s), so quick ratios carry that noise and full ones wait 3 s.
 */
export const HTTP_BUDGETS = {
  quick: { rounds: 5, idsSec: 1, warmupSec: 0.5, loginRounds: 5, loginSec: 0.5, warmupLogins: 4 },
  full: { rounds: 10, idsSec: 2, warmupSec: 3, loginRounds: 4, loginSec: 5, warmupLogins: 16 },
} as const
export type HttpBudget = (typeof HTTP_BUDGETS)[keyof typeof HTTP_BUDGETS]
