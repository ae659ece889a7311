import type { Budget } from '../types.js'

/**
 * Quick: every suite in about 3 minutes on a 2-core box, enough to see who wins and by how much,
 * with wide error bars flagged. Full: publication runs, several times longer per figure.
 */
export const QUICK: Budget = {
  idTimeMs: 400,
  idWarmupMs: 100,
  heapIds: 500_000,
  hashTimeMs: 250,
  hashMinSamples: 3,
  allSettings: false,
  lagTimeMs: 600,
  lagMinHashes: 2,
  concurrencyTimeMs: 300,
  concurrencyCapMs: 3_000,
  stretchTimeMs: 500,
  stretchMinSamples: 3,
}

export const FULL: Budget = {
  idTimeMs: 3_000,
  idWarmupMs: 1_000,
  heapIds: 1_000_000,
  hashTimeMs: 3_000,
  hashMinSamples: 10,
  allSettings: true,
  lagTimeMs: 5_000,
  lagMinHashes: 5,
  concurrencyTimeMs: 3_000,
  concurrencyCapMs: Number.POSITIVE_INFINITY,
  stretchTimeMs: 5_000,
  stretchMinSamples: 10,
}

/**
 * The http suite's budgets. Quick: both scenarios for both frameworks within about 4 minutes; full:
 * publication length.
 * Seconds are wall time per measured round; logins are counted, not timed (see the login scenario).
 * Warm-up: a fresh express server was still speeding up after 1 s (6.3 k req/s in the second after a 3 s
 * warm-up, 5.5 k after 1 s), so quick ratios carry that noise and full ones wait 3 s.
 */
export const HTTP_BUDGETS = {
  quick: { rounds: 3, idsSec: 1, warmupSec: 0.5, loginRounds: 2, loginSec: 0.8, warmupLogins: 4 },
  full: { rounds: 10, idsSec: 2, warmupSec: 3, loginRounds: 4, loginSec: 5, warmupLogins: 16 },
} as const
export type HttpBudget = (typeof HTTP_BUDGETS)[keyof typeof HTTP_BUDGETS]
