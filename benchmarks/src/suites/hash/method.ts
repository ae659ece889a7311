import { raceText } from '../../harness/rows.js'
import type { HashBudget } from './entries.js'

export const method = (budget: HashBudget) =>
  [
    `${budget.rounds} rounds at least, after two discarded hashes and a verify each; in every round each configuration hashes, then verifies (${budget.settingVerifies ? 'at every setting' : 'at its defaults only: a verify repeats the derivation; --full times it at every setting'}), each repeated until ${budget.roundMs} ms of CPU (at least once; the round keeps the median), in a fresh random order, each batch of calls (calls under 20 ms are batched) on a settled heap and, except for the natives, beside a batch of the native implementation of its algorithm (the order flipped every pair). Value = median over rounds of CPU ms of this process (main thread, libuv pool and worker threads), so other processes' load stays out; the wall-clock median is beside it.`,
    `Ratio = native CPU time ÷ candidate CPU time, the median over a round's pairs (> 1: cheaper than native); pairs of adjacent calls see the same machine speed.${raceText(budget, 'entries')}`,
  ].join(' ')
