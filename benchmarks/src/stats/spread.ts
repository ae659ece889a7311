import { keyText } from '../model/keys.js'
import { hasFlag, type Ratio, type ResultsFile } from '../model/types.js'
import { median } from './stats.js'
import { LOWER, MIN_EFFECT_PCT, UPPER } from './verdict.js'

export interface RatioSpread {
  readonly key: string
  readonly baseline: string
  /** One ratio per file, in file order (undefined where the file lacks the row). */
  readonly values: readonly (number | undefined)[]
  readonly min: number
  readonly max: number
  readonly median: number
  /** The farthest run from the median of the runs, in percent of it: how far one run can be trusted. */
  readonly maxDeviationPct: number
}

/** Range, median and the farthest value's distance from the median (in percent of it) of one figure's runs. */
export function spreadOf(
  values: readonly number[],
): Pick<RatioSpread, 'min' | 'max' | 'median' | 'maxDeviationPct'> {
  const [min, max, mid] = [Math.min(...values), Math.max(...values), median(values)]
  return { min, max, median: mid, maxDeviationPct: (100 * Math.max(mid - min, max - mid)) / mid }
}

/**
 * The run-to-run spread of every charted ratio over several results files (e.g. three consecutive
 * quick runs): within-run rme says nothing about process-to-process variation, this does.
 */
export function ratioSpread(files: readonly ResultsFile[]): RatioSpread[] {
  const keys = new Map<string, string>()
  const perFile = files.map((file) => {
    const map = new Map<string, number>()
    for (const row of file.suites.flatMap((s) => s.rows)) {
      const ratio = row.ratios[0]
      if (!ratio) continue
      const key = keyText(row)
      keys.set(key, ratio.baseline)
      map.set(key, ratio.value)
    }
    return map
  })
  return [...keys].map(([key, baseline]) => {
    const values = perFile.map((map) => map.get(key))
    return { key, baseline, values, ...spreadOf(values.filter((v): v is number => v !== undefined)) }
  })
}

/** One run's verdicts, counted: what a reader of several runs asks before trusting any of them. */
export interface RunVerdicts {
  /** Per suite: comparisons other than A/A controls, and how many of them are decided (better, worse, same). */
  readonly suites: ReadonlyMap<string, { readonly decided: number; readonly total: number }>
  /** Ratios whose whole interval lies beyond the margin yet do not read better or worse. */
  readonly beyondMarginUndecided: readonly string[]
  /** "same" verdicts whose interval reaches more than twice the margin from 1. */
  readonly wideSame: readonly string[]
  /** A/A controls that read better or worse. */
  readonly controlsOff: readonly string[]
}

/** How several runs of one commit agree: each run's verdicts, and their verdicts across runs. */
export interface VerdictAudit {
  readonly runs: readonly RunVerdicts[]
  /** Comparisons decided in two runs with different verdicts. */
  readonly flips: readonly string[]
  /** Pairs (a decided interval of one run, the same ratio's median in another) and how many it covers. */
  readonly coverage: { readonly covered: number; readonly pairs: number }
}

const isDecided = (q: Ratio) => q.verdict === 'better' || q.verdict === 'worse' || q.verdict === 'same'

/** Every ratio of a run by a key that names its row and baseline. */
function ratiosOf(file: ResultsFile): Map<string, { suite: string; control: boolean; ratio: Ratio }> {
  const map = new Map<string, { suite: string; control: boolean; ratio: Ratio }>()
  for (const row of file.suites.flatMap((s) => s.rows)) {
    const control = hasFlag(row, 'control')
    // A control's own comparison is its first ratio (the same code as its baseline); its ratios to
    // other baselines repeat that baseline's and are no comparison of their own.
    for (const ratio of control ? row.ratios.slice(0, 1) : row.ratios) {
      if (ratio.rounds.length === 0) continue
      map.set(`${keyText(row)} ÷ ${ratio.against}`, { suite: row.suite, control, ratio })
    }
  }
  return map
}

/** The verdict audit of several runs (see VerdictAudit); the rule itself lives in measure/verdict.ts. */
export function verdictAudit(files: readonly ResultsFile[]): VerdictAudit {
  const perRun = files.map(ratiosOf)
  const runs = perRun.map((ratios): RunVerdicts => {
    const suites = new Map<string, { decided: number; total: number }>()
    const beyondMarginUndecided: string[] = []
    const wideSame: string[] = []
    const controlsOff: string[] = []
    for (const [key, { suite, control, ratio }] of ratios) {
      if (control) {
        if (ratio.verdict === 'better' || ratio.verdict === 'worse') controlsOff.push(key)
        continue
      }
      const counts = suites.get(suite) ?? { decided: 0, total: 0 }
      suites.set(suite, { decided: counts.decided + (isDecided(ratio) ? 1 : 0), total: counts.total + 1 })
      // The rule's own margin ends (1.05 and 1 ÷ 1.05), so the audit flags exactly what the rule missed.
      const beyond = ratio.low >= UPPER || ratio.high <= LOWER
      if (beyond && ratio.verdict !== 'better' && ratio.verdict !== 'worse') beyondMarginUndecided.push(key)
      const wide = ratio.low < 1 - (2 * MIN_EFFECT_PCT) / 100 || ratio.high > 1 + (2 * MIN_EFFECT_PCT) / 100
      if (ratio.verdict === 'same' && wide) wideSame.push(key)
    }
    return { suites, beyondMarginUndecided, wideSame, controlsOff }
  })
  const flips: string[] = []
  let [covered, pairs] = [0, 0]
  const keys = new Set(perRun.flatMap((ratios) => [...ratios.keys()]))
  for (const key of keys) {
    const seen = perRun.map((ratios) => ratios.get(key)).filter((r) => r !== undefined)
    if (seen[0]?.control) continue
    const decided = seen.filter((r) => isDecided(r.ratio))
    if (new Set(decided.map((r) => r.ratio.verdict)).size > 1)
      flips.push(`${key}: ${decided.map((r) => r.ratio.verdict).join(' / ')}`)
    for (const own of decided)
      for (const other of seen) {
        if (other === own) continue
        pairs++
        if (own.ratio.low <= other.ratio.value && other.ratio.value <= own.ratio.high) covered++
      }
  }
  return { runs, flips, coverage: { covered, pairs } }
}
