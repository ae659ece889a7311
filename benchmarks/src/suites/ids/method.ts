import { roundsBeforeInterlude } from '../../harness/rounds.js'
import { raceText } from '../../harness/rows.js'
import type { IdsBudget } from './measure.js'

/** One ID in this many is kept alive when the retained heap is measured. */
export const KEEP_EVERY = 1000

export const method = (budget: IdsBudget) =>
  [
    `${budget.rounds} rounds at least (when other suites follow, the first ${roundsBeforeInterlude(budget.rounds)} before them and the rest after, so the rounds span the run); in each, every candidate runs in a fresh process (random order per round) beside the yardstick crypto.randomUUID(), each from its own loop: ${budget.sampling.warmupMs} ms CPU of warm-up each that also sizes the batches to ≥ ${budget.sampling.sampleMs} ms, then ${budget.sampling.samples} adjacent pairs of batches, in CPU time (user + system, so other processes' load stays out). IDs/s is the median of the candidate's batches; the round's relative speed is the median over pairs of candidate ÷ yardstick speed, so both sides of every pair ran at the same machine speed.`,
    `A round's value is the candidate's speed relative to the yardstick in its own process, so each round is one process: the interval resamples processes.${raceText(budget, 'candidates')}`,
    `Retained heap, in the first round's process of each candidate after its timing: ${budget.heap.ids.toLocaleString('en')} IDs generated, one in ${KEEP_EVERY} kept, after a full GC (the least of ${budget.heap.repeats} measurement${budget.heap.repeats === 1 ? '' : 's'}); "× standalone" compares with as many flat strings, as generated and after each survivor is HMAC-signed as a cookie (which flattens concatenated V8 strings in place; the conformance suite allows 2× after signing).`,
  ].join(' ')
