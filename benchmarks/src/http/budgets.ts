/**
 * Quick: both scenarios for both frameworks within 4 minutes (issue 5); full: publication length.
 * Seconds are wall time per measured round; logins are counted, not timed (see the login scenario).
 * Warm-up: a fresh express server was still speeding up after 1 s (6.3 k req/s in the second after a 3 s
 * warm-up, 5.5 k after 1 s), so quick ratios carry that noise and full ones wait 3 s.
 */
export const HTTP_BUDGETS = {
  quick: { rounds: 3, idsSec: 1, warmupSec: 0.5, loginRounds: 2, loginSec: 0.8, warmupLogins: 4 },
  full: { rounds: 10, idsSec: 2, warmupSec: 3, loginRounds: 4, loginSec: 5, warmupLogins: 16 },
} as const
export type HttpBudget = (typeof HTTP_BUDGETS)[keyof typeof HTTP_BUDGETS]
