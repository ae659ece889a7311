import type { StretchBudget } from './jobs.js'

export const method = (budget: StretchBudget) =>
  [
    "Rows [1]–[4] follow the numbering of Mozilla's 2013 table: [1] PBKDF2 alone, [2] the chain with a remote scrypt helper, [3] with local native scrypt, [4] with scrypt compiled to WASM or JS.",
    `${budget.rounds} rounds at least (more, up to the race budget, for a job whose ratio is undecided) after one discarded run each, every job once per round in a fresh random order; every call of a non-native job is paired with a call of its baseline right beside it (the order flipped every pair); ratio = baseline time ÷ candidate time, the median over a round's pairs, then the median over rounds.`,
    "[2] is timed in wall time (this process's CPU time holds only the two PBKDF2 steps and HKDF), each call paired with a call of [3] beside it, also in wall time; it also carries any difference between the two cores' load (other work on a shared machine is not spread evenly over them), so it is not a network figure.",
  ].join(' ')
