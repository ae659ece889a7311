/**
 * Every sentence for what src/stats decides: a ratio's magnitude and verdict, a row's reading, the
 * verdict of several runs, a flag, a goal, a change between runs, a withheld suite and the rule itself.
 * The decisions are types; nothing decides by these strings.
 */

import type { Flag, FlagKind, Ratio, Row, Verdict } from '../model/types.js'
import type { Reading } from '../stats/decide.js'
import type { Held } from '../stats/held.js'
import { leanOf, MIN_EFFECT_PCT, MIN_ROUNDS, UPPER } from '../stats/verdict.js'

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
export function verdictText(q: Ratio, lean = true): string {
  if (q.withheld) return 'undecided (withheld: the A/A control moved)'
  if (q.verdict === 'same') return `same (±${q.margin ?? MIN_EFFECT_PCT} %)`
  if (q.verdict !== 'undecided') return q.verdict
  if (q.rounds.length < MIN_ROUNDS) return `undecided (n = ${q.rounds.length})`
  const side = leanOf(q)
  return side === 'same' || !lean ? 'undecided' : `undecided, leans ${side}`
}

/** A ratio as every reporter prints it: magnitude, interval and verdict. */
export function formatRatio(q: Ratio): string {
  if (q.rounds.length === 0) return 'not measured'
  return `${formatMagnitude(q)} ${verdictText(q)}`
}

/** An A/A control's reading: it must read same; better or worse means the harness moved. */
export function controlText(verdict: Verdict): string {
  if (verdict === 'better' || verdict === 'worse') return `control read ${verdict}: suspect`
  return verdict === 'same' ? 'control: same' : 'control: undecided'
}

/** A row's state in a few words: what the reader may conclude from its first ratio. */
export function readingText(r: Reading, lean = true): string {
  switch (r.kind) {
    case 'suspect':
    case 'baseline':
    case 'ceiling':
      return r.kind
    case 'control':
      return controlText(r.verdict)
    case 'ratio':
      return verdictText(r.ratio, lean)
    case 'none':
      return ''
  }
}

/** What several runs say of a row: "better (3 of 3 runs)", "undecided in 1 of 3 runs", "varies: …". */
export function heldText(h: Held): string {
  switch (h.kind) {
    case 'one':
      return readingText(h.reading)
    case 'some':
      return `in ${h.present} of ${h.of} runs`
    case 'all':
      return `${readingText(h.reading, false)}${h.counted ? ` (${h.of} of ${h.of} runs)` : ''}`
    case 'undecided-in':
      return `${h.control ? 'control: ' : ''}undecided in ${h.undecided} of ${h.of} runs`
    case 'varies':
      return `varies: ${h.readings.map((r) => readingText(r)).join(', ')}`
  }
}

/** A flag as the tables print it. */
export function flagText(f: Flag): string {
  switch (f.kind) {
    case 'baseline':
      return 'baseline'
    case 'control':
      return 'A/A control'
    case 'ceiling':
      return 'ceiling: INSECURE, bench-only'
    case 'above-limit':
      return `measurement error: above its limit ${f.limit} (${f.low.toFixed(2)}–${f.high.toFixed(2)})`
    case 'failed':
      return `failed: ${f.reason}`
    case 'no-figure':
      return 'no clean round: no figure'
    case 'marked-rounds':
      return `${f.rounds} round(s) with errors/timeouts/non-2xx left out`
    case 'noisy':
      return `noisy: ${f.retries} retried helper calls (their backoff is in the wall time)`
    case 'same-as-defaults':
      return 'same measurement as defaults'
    case 'shared-rounds':
      return 'same rounds as its CPU-time row'
    case 'not-paired':
      return 'runtimes ran one after another: not paired by round'
    case 'incompatible':
      return `${f.step}: ${f.reason}`
    case 'other':
      return f.text
  }
}

/** What each kind of flag means, said where the flag is shown. */
export const FLAG_MEANINGS: Partial<Record<FlagKind, string>> = {
  baseline: 'the figure the other rows are divided by, measured in the same rounds.',
  control:
    "the baseline measured again as a separate candidate, judged by the same rule: it must read same. If it reads better or worse, the harness is wrong, not the code, and the suite's other verdicts are withheld.",
  ceiling:
    'a bench-only INSECURE reference: the cheapest possible way to produce the same output, a real upper bound. Never use it.',
  'above-limit':
    'a ratio to a physical limit cannot exceed that limit (1 for a ceiling or a cores ÷ hash-time limit, min(K, cores) for a speed-up); this row’s whole interval lies above it, so the harness mismeasured and the row is not a finding.',
  noisy: 'the spread across rounds is too wide for the figure to be read as fact.',
  'no-figure': 'every round failed or was left out: there is no figure, the 0 is a placeholder.',
  'same-as-defaults':
    'this setting is the hasher’s default, so its figures are the ones of the defaults group.',
}

/** The rule in one sentence, for notes, READMEs and `--help`. */
export const VERDICT_RULE = `A ratio: the median of per-round ratios to a baseline timed in the same round (> 1 is better), with a 95 % interval for the next run's median. Better or worse: the interval lies wholly beyond ±${MIN_EFFECT_PCT} % (above ${UPPER}, below 1 ÷ ${UPPER}); same: wholly inside; undecided: across an end, or under ${MIN_ROUNDS} rounds.`

/** Whether a ratio reaches a goal, in the words of a table cell (goalVerdict's better or worse). */
export function goalText(verdict: Verdict, rounds: number): string {
  if (verdict === 'better') return 'yes'
  if (verdict === 'worse') return 'no'
  return rounds < MIN_ROUNDS ? `undecided (n = ${rounds})` : 'undecided at this precision'
}

/** Why a suite's verdicts are withheld: the A/A control that read better or worse. */
export function withheldText(control: Pick<Row, 'label' | 'group' | 'ratios'>): string {
  return `Verdicts withheld: the harness disagrees with itself: A/A control ${control.label} (${control.group}) read ${formatMagnitude(control.ratios[0] as Ratio)}.`
}

/** A change between two sides of `compare`, in the words CI prints. */
export function changeText(verdict: Verdict, reason: string | undefined, rounds: string): string {
  if (verdict === 'undecided') return `undecided (${reason ?? 'too few rounds'}; n = ${rounds})`
  if (verdict === 'worse') return 'REGRESSION'
  return verdict === 'same' ? 'no change' : 'better'
}

/** The legend of every chart: what a reader may take a bar for, learnt once. */
export const SERIES = {
  decided: 'better or worse',
  same: `same (within ±${MIN_EFFECT_PCT} %)`,
  undecided: 'undecided (interval straddles the margin)',
  baseline: 'baseline',
  control: 'A/A control',
  ceiling: 'INSECURE ceiling',
  flagged: 'flagged ⚠ (see table)',
} as const
