import type { Ratio } from '../model/types.js'
import { median, seededRandom, shuffle } from '../stats/stats.js'
import { decidable } from '../stats/verdict.js'
import { message } from './rows.js'
import type { RaceBudget, RoundsBudget, SuiteContext } from './suite.js'

/**
 * R rounds, every candidate once per round, each round in a fresh seeded random order: a disturbance
 * (another process, a frequency change, a GC left behind) lands on a random candidate instead of on
 * whoever always runs after the same neighbour. Every suite and runtime loop takes its order from here.
 */
export function shuffledRounds<T>(candidates: readonly T[], rounds: number, seed: number): T[][] {
  if (!Number.isSafeInteger(rounds) || rounds < 1)
    throw new RangeError(`rounds must be a positive integer, got ${rounds}`)
  const random = seededRandom(seed)
  return Array.from({ length: rounds }, () => shuffle(candidates, random))
}

/** How many of `rounds` minimum rounds run before an interlude (see `runRounds`): the first half, rounded up. */
export const roundsBeforeInterlude = (rounds: number) => Math.ceil(rounds / 2)

/** One of a candidate's comparisons, and the candidates it divides by (measured in separate runs of `measure`). */
export interface Comparison<C> {
  readonly ratio: Ratio
  readonly partners?: readonly C[]
}

/**
 * The race's pending rule: each candidate with an undecided comparison that `maxRounds` could still
 * decide (`decidable`), with the partners it divides by, so every extra round stays paired by index.
 */
export function undecidedWithPartners<C>(
  candidates: readonly C[],
  comparisons: (candidate: C) => readonly Comparison<C>[],
  maxRounds: number,
): C[] {
  const need = new Set<C>()
  for (const candidate of candidates) {
    for (const { ratio, partners = [] } of comparisons(candidate)) {
      if (ratio.verdict !== 'undecided' || !decidable(ratio, maxRounds)) continue
      need.add(candidate)
      for (const partner of partners) need.add(partner)
    }
  }
  return candidates.filter((c) => need.has(c))
}

/** What a suite hands the harness, which owns the rounds, their order, the race and the interlude. */
export interface RoundsPlan<C, R> {
  readonly candidates: readonly C[]
  /** The minimum rounds, and the allowance for extra ones (a racing design: Maron & Moore 1994). */
  readonly budget: { readonly rounds: number; readonly race?: RaceBudget }
  readonly seed: number
  /** Measures one candidate in one round. */
  readonly measure: (candidate: C, round: number) => Promise<R>
  readonly onError: (candidate: C, error: unknown) => void
  /** A candidate's comparisons given the results so far, with their partners. Absent: no race. */
  readonly comparisons?: (
    candidate: C,
    results: ReadonlyMap<C, readonly (R | undefined)[]>,
  ) => readonly Comparison<C>[]
  readonly interlude?: () => Promise<void>
}

/**
 * Runs `measure` for every candidate in every round (in the shuffled order) and returns each candidate's
 * results by round index. With a race budget, rounds go on for the candidates with an undecided
 * comparison the reachable rounds could decide, until none is left, `maxRounds` is reached or the
 * allowance is spent: decided comparisons stop early, undecided ones get the time. Stopping when decided
 * looks at the data more than once; the A/A controls race too, and show whether that made identical code
 * read different. A measurement that throws leaves `undefined` in its round (reported through
 * `onError`), so the other rounds stay paired by index. An `interlude` runs once, after the first half
 * of the minimum rounds (rounded up): other work placed there spreads the rounds in time.
 */
export async function runRounds<C, R>(plan: RoundsPlan<C, R>): Promise<Map<C, (R | undefined)[]>> {
  const { candidates, seed, measure, onError, interlude, comparisons } = plan
  const { rounds } = plan.budget
  const race = comparisons && plan.budget.race
  const pendingAt = (results: ReadonlyMap<C, readonly (R | undefined)[]>, maxRounds: number) =>
    undecidedWithPartners(candidates, (c) => comparisons?.(c, results) ?? [], maxRounds)
  const results = new Map<C, (R | undefined)[]>(candidates.map((c) => [c, []]))
  // Wall ms each candidate's measurements took, so an extra round is started only if it fits.
  const spent = new Map<C, number[]>(candidates.map((c) => [c, []]))
  const runRound = async (order: readonly C[], round: number) => {
    for (const candidate of order) {
      const list = results.get(candidate) as (R | undefined)[]
      const started = performance.now()
      try {
        list[round] = await measure(candidate, round)
      } catch (error) {
        onError(candidate, error)
      }
      spent.get(candidate)?.push(performance.now() - started)
    }
  }
  for (const [round, order] of shuffledRounds(candidates, rounds, seed).entries()) {
    if (round === roundsBeforeInterlude(rounds)) await interlude?.()
    await runRound(order, round)
  }
  if (race) {
    const started = performance.now()
    // A round of costly candidates takes seconds: the next starts only if, at each pending
    // candidate's own median pace, it ends within the allowance.
    const roundMs = (pending: readonly C[]) =>
      pending.reduce((sum, c) => sum + (median(spent.get(c) ?? []) || 0), 0)
    for (let round = rounds; round < race.maxRounds; round++) {
      const undecided = pendingAt(results, race.maxRounds)
      if (undecided.length === 0) break
      // Futility is judged at the rounds the allowance still pays for, not at maxRounds: a comparison
      // those rounds cannot decide gives its time back.
      const cost = roundMs(undecided)
      const left = race.budgetMs - (performance.now() - started)
      const affordable = cost > 0 ? Math.max(0, Math.floor(left / cost)) : race.maxRounds
      const reachable = Math.min(race.maxRounds, round + affordable)
      const pending = reachable > round ? pendingAt(results, reachable) : []
      if (pending.length === 0) break
      if (performance.now() - started + roundMs(pending) > race.budgetMs) break
      await runRound(shuffledRounds(pending, 1, seed + round)[0] as C[], round)
    }
  }
  // Every candidate's list has one slot per round run, measured or not.
  const length = Math.max(0, ...[...results.values()].map((l) => l.length))
  for (const list of results.values()) for (let i = 0; i < length; i++) if (!(i in list)) list[i] = undefined
  return results
}

/**
 * The rounds of a suite whose candidates are measured one at a time: each step announced by its label,
 * a failed round recorded for its candidate.
 */
export function candidateRounds<C, R>(
  ctx: SuiteContext,
  plan: Omit<RoundsPlan<C, R>, 'seed' | 'onError'> & {
    readonly name: (candidate: C) => { readonly id: string; readonly label: string }
    readonly onError?: RoundsPlan<C, R>['onError']
  },
): Promise<Map<C, (R | undefined)[]>> {
  return runRounds({
    ...plan,
    seed: ctx.seed,
    measure: (candidate, round) => {
      ctx.progress.step(`round ${round + 1} · ${plan.name(candidate).label}`)
      return plan.measure(candidate, round)
    },
    onError: (candidate, error) => {
      ctx.failed(plan.name(candidate).id, message(error))
      plan.onError?.(candidate, error)
    },
  })
}

/**
 * The rounds of a suite that measures every candidate together in each round (one server, or one set
 * of stores): a round runs again while any of `ratios` is undecided.
 */
export async function wholeRounds<R>(plan: {
  readonly budget: RoundsBudget
  readonly seed: number
  readonly measure: (round: number) => Promise<R>
  readonly onError: (error: unknown) => void
  readonly ratios: (rounds: readonly (R | undefined)[]) => readonly Ratio[]
}): Promise<(R | undefined)[]> {
  const ROUND = 'round'
  const measured = await runRounds({
    candidates: [ROUND],
    budget: plan.budget,
    seed: plan.seed,
    measure: (_, round) => plan.measure(round),
    onError: (_, error) => plan.onError(error),
    comparisons: (_, results) => plan.ratios(results.get(ROUND) ?? []).map((ratio) => ({ ratio })),
  })
  return measured.get(ROUND) ?? []
}
