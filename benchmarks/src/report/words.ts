/**
 * The words for what src/measure/verdict.ts decides: a ratio's magnitude and verdict, an A/A control's
 * reading, a goal, a withheld suite and the rule itself. The decision never depends on these strings.
 */
import {
  type GoalVerdict,
  goalVerdict,
  LOWER,
  leanOf,
  MIN_EFFECT_PCT,
  MIN_ROUNDS,
  UPPER,
} from '../measure/verdict.js'
import type { Ratio } from '../types.js'

/**
 * A ratio's magnitude and interval with the decimals that show the interval's width and no more:
 * "0.77× [0.70–0.84]", "0.031× [0.026–0.034]", "4.9× [4.5–5.0]".
 */
export function formatMagnitude(q: Pick<Ratio, 'value' | 'low' | 'high'>): string {
  const halfWidth = (q.high - q.low) / 2
  const d = Math.min(4, Math.max(0, halfWidth > 0 ? -Math.floor(Math.log10(halfWidth)) : 3))
  return `${q.value.toFixed(d)}× [${q.low.toFixed(d)}–${q.high.toFixed(d)}]`
}

/** The verdict's words: "worse", "same (±5 %)", "undecided, leans worse", "undecided (n = 3)". */
export function verdictText(q: Ratio): string {
  if (q.withheld) return `undecided (${q.withheld})`
  if (q.verdict === 'same') return `same (±${q.margin ?? MIN_EFFECT_PCT} %)`
  if (q.verdict !== 'undecided') return q.verdict
  if (q.rounds.length < MIN_ROUNDS) return `undecided (n = ${q.rounds.length})`
  const lean = leanOf(q)
  return lean === 'same' ? 'undecided' : `undecided, leans ${lean}`
}

/** An A/A control's reading in words: it must read same; better or worse means the harness moved. */
export function controlText(q: Ratio | undefined): string {
  if (q?.verdict === 'better' || q?.verdict === 'worse') return `control read ${q.verdict}: suspect`
  return q?.verdict === 'same' ? 'control: same' : 'control: undecided'
}

/** A ratio as every reporter prints it: magnitude, interval and verdict. */
export function formatRatio(q: Ratio): string {
  if (q.rounds.length === 0) return 'not measured'
  return `${formatMagnitude(q)} ${verdictText(q)}`
}

/** The rule in one sentence, for notes, READMEs and `--help`. */
export const VERDICT_RULE = `A ratio is the median of per-round ratios to a baseline timed in the same round (> 1 is better), with a 95 % bootstrap interval for the next run's median. Better or worse: the interval lies wholly beyond the ${MIN_EFFECT_PCT} % margin (above ${UPPER}, or below 1 ÷ ${UPPER} = ${LOWER.toFixed(3)}, so A ÷ B and B ÷ A agree); same: wholly inside it; undecided (with the side it leans to): across an end, or under ${MIN_ROUNDS} rounds.`

/** What a quick run left out for costing more than its cap a call (or a burst), in one note. */
export function cappedNote(
  capMs: number,
  left: readonly { readonly what: string; readonly ms: number }[],
): string[] {
  if (left.length === 0) return []
  const list = left.map((l) => `${l.what} (${(l.ms / 1000).toFixed(1)} s)`).join(', ')
  return [`Not run, over the ${capMs / 1000} s quick cap (--full runs them): ${list}.`]
}

/** Whether a ratio reaches a goal, in the words of a table cell. */
export function goalText(q: Ratio, goal: number): string {
  const words: Record<GoalVerdict, string> = {
    reached: 'yes',
    missed: 'no',
    undecided: 'undecided at this precision',
    'too few rounds': `undecided (n = ${q.rounds.length})`,
  }
  return words[goalVerdict(q, goal)]
}

/** Why a suite's verdicts are withheld: the A/A control that read better or worse. */
export function disagreementText(control: {
  label: string
  group: string
  ratios: readonly Ratio[]
}): string {
  return `the harness disagrees with itself: A/A control ${control.label} (${control.group}) read ${formatMagnitude(control.ratios[0] as Ratio)}`
}
