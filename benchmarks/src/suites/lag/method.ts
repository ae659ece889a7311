import { type LagBudget, TICK_MS } from './measure.js'

export const method = (budget: LagBudget) =>
  `${budget.rounds} rounds at least (more, up to the race budget, for a hasher whose ratio is undecided, with its baselines), hashers in a fresh random order per round; in each, a hasher hashes back to back for ${budget.timeMs} ms (at least ${budget.minHashes} hashes) while a ${TICK_MS} ms interval ticks: a non-blocking hasher completes about (ms/hash ÷ ${TICK_MS}) ticks per hash, a blocking one about 1. Value = median over rounds of the max delay. Ratio = this hasher's loop-free share (ticks × tick ÷ hashing time) ÷ native's (and, for a main-thread hasher, ÷ the same algorithm's on workers), per round: 1 when both leave the loop free, far below 1 for a hasher that holds it.`
