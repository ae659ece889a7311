import type { Budget } from '../types.js'

/**
 * Quick: every default suite in under 4 minutes on a 2-core box, with at least 5 rounds behind every
 * ratio (fewer print as undecided) and a wall-time allowance per suite for extra rounds where a ratio is
 * still undecided (67 s at most over the six default suites); the loops are budgeted in CPU time, so a
 * slower machine (or a slow phase of a shared one) takes longer. Full: publication runs, more and longer
 * rounds, no caps.
 */
export const QUICK: Budget = {
  mode: 'quick',
  ids: {
    rounds: 5,
    sampling: { warmupMs: 40, sampleMs: 2, samples: 24 },
    // One measurement after a short warm-up: the measuring process has just timed the generator, so it
    // is already compiled; repeats cost seconds per slow generator in a run meant to last minutes.
    heap: { ids: 50_000, repeats: 1, warmup: 5_000 },
    race: { maxRounds: 16, budgetMs: 5_000 },
  },
  hash: {
    rounds: 5,
    roundMs: 45,
    // A configuration whose warm call takes longer is left out of the quick run, and its notes say so:
    // calls of seconds (pure-JS scrypt at N=2^17) would take much of the suite's time for ratios the
    // cost-equalised scrypt setting (N=2^14 r=16) already gives.
    callCapMs: 400,
    allSettings: false,
    settingVerifies: false,
    race: { maxRounds: 16, budgetMs: 8_000 },
  },
  lag: { rounds: 5, timeMs: 150, minHashes: 1, callCapMs: 400, race: { maxRounds: 16, budgetMs: 8_000 } },
  concurrency: { rounds: 5, capMs: 400, roundMs: 250, race: { maxRounds: 16, budgetMs: 8_000 } },
  // Short calls are batched by 20 ms and paired with their baseline's; a round must hold enough pairs
  // that one scheduling hiccup does not move its ratio. The chains' calls take longer than a round, so
  // this lengthens only the short rows' rounds.
  stretch: { rounds: 5, roundMs: 150, race: { maxRounds: 16, budgetMs: 8_000 } },
  http: {
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
}

export const FULL: Budget = {
  mode: 'full',
  ids: {
    rounds: 20,
    sampling: { warmupMs: 300, sampleMs: 5, samples: 60 },
    heap: { ids: 1_000_000, repeats: 3, warmup: 100_000 },
    race: { maxRounds: 40, budgetMs: 120_000 },
  },
  hash: {
    rounds: 15,
    roundMs: 250,
    callCapMs: Number.POSITIVE_INFINITY,
    allSettings: true,
    settingVerifies: true,
    race: { maxRounds: 40, budgetMs: 180_000 },
  },
  lag: {
    rounds: 10,
    timeMs: 1_000,
    minHashes: 3,
    callCapMs: Number.POSITIVE_INFINITY,
    race: { maxRounds: 40, budgetMs: 60_000 },
  },
  concurrency: {
    rounds: 10,
    capMs: Number.POSITIVE_INFINITY,
    roundMs: 1_500,
    race: { maxRounds: 40, budgetMs: 120_000 },
  },
  stretch: { rounds: 10, roundMs: 250, race: { maxRounds: 40, budgetMs: 60_000 } },
  http: {
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
