import { median } from '../stats/stats.js'
import { summarizeRatio } from '../stats/verdict.js'
import type { RoundsBudget, SuiteRow } from './suite.js'

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
export const ratioTo = (
  base: { readonly id: string; readonly label: string },
  perRound: readonly number[],
  margin?: number,
) => summarizeRatio({ against: base.id, label: base.label, margin }, perRound)

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
  return {
    group,
    key,
    candidate,
    label,
    value: median(rounds),
    unit,
    higherIsBetter,
    rounds,
    ratios,
    details,
    flags,
  }
}

/** The method texts' sentence on extra rounds, when the budget races. */
export const raceText = ({ race }: RoundsBudget, who: string) =>
  race
    ? ` Rounds go on, up to ${race.maxRounds} and ${race.budgetMs / 1000} s, for ${who} with an undecided ratio.`
    : ''
