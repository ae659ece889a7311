import type { PasswordHasher } from '@authlab/core'
import { describeParams } from '../discover/settings.js'
import { configurationKey, knownCallMs, recordCallMs } from '../measure/call-cost.js'
import { type RoundsPlan, runRounds } from '../measure/rounds.js'
import { median } from '../measure/stats.js'
import { summarizeRatio } from '../measure/verdict.js'
import type { Ratio, RoundsBudget, SuiteContext, SuiteRow } from '../types.js'

/** The figures of the rounds that produced one (a failed round leaves undefined), in round order. */
export const defined = (values: readonly (number | undefined)[]): number[] =>
  values.filter((v): v is number => v !== undefined)

export const message = (error: unknown) => (error as Error).message

/** The id suffix of an A/A control: a candidate measured again as a separate one, which must read same. */
export const CONTROL_SUFFIX = ' (A/A)'

/** A candidate again as its own A/A control. */
export const controlOf = <C extends { readonly id: string; readonly label: string }>(candidate: C): C => ({
  ...candidate,
  id: `${candidate.id}${CONTROL_SUFFIX}`,
  label: `${candidate.label} [A/A control]`,
})

/** A ratio to another candidate of the run, named by its label and selected by its id. */
export const ratioTo = (base: { readonly id: string; readonly label: string }, perRound: readonly number[]) =>
  summarizeRatio({ label: base.label, against: base.id }, perRound)

/** The method texts' sentence on extra rounds, when the budget races. */
export const raceText = ({ race }: RoundsBudget, who: string) =>
  race
    ? ` Rounds go on, up to ${race.maxRounds} and ${race.budgetMs / 1000} s, for ${who} with an undecided ratio.`
    : ''

/**
 * A row whose value is the median of its rounds' figures, and whose rounds are those figures (fields
 * in the order results files list them).
 */
export function medianRow({
  perRound,
  ...row
}: Omit<SuiteRow, 'value' | 'rounds'> & { readonly perRound: readonly (number | undefined)[] }): SuiteRow {
  const rounds = defined(perRound)
  const { group, key, candidate, label, unit, higherIsBetter, ratios, details, flags } = row
  const value = median(rounds)
  return {
    group,
    ...(key ? { key } : {}),
    candidate,
    label,
    value,
    unit,
    higherIsBetter,
    rounds,
    ratios,
    details,
    flags,
  }
}

/**
 * A configuration's warm call in ms, shared by the suites: an earlier suite's figure when `enough` says
 * it already decides, else `time()`'s, recorded for the suites after.
 */
export async function warmCallMs(
  candidate: { readonly id: string },
  hasher: PasswordHasher,
  enough: (knownMs: number) => boolean,
  time: () => Promise<number>,
): Promise<number> {
  const key = configurationKey(candidate.id, describeParams(hasher))
  const known = knownCallMs(key)
  if (known !== undefined && enough(known)) return known
  const ms = await time()
  recordCallMs(key, ms)
  return ms
}

/**
 * The rounds of a suite whose candidates are measured one at a time: each step announced by its label,
 * a failed round noted by its id.
 */
export function candidateRounds<C, R>(
  ctx: SuiteContext,
  notes: string[],
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
      notes.push(`${plan.name(candidate).id}: a round failed (${message(error)})`)
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
