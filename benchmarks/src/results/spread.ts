import { median } from '../measure/stats.js'
import type { Row } from '../types.js'
import type { ResultsFile } from './results.js'

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

/** The key a row keeps from run to run. */
export const rowKey = (row: Row) => `${row.suite} · ${row.group} · ${row.candidate}`

/** Range, median and the farthest value's distance from the median (in percent of it) of one figure's runs. */
export function spreadOf(values: readonly number[]): Pick<RatioSpread, 'min' | 'max' | 'median' | 'maxDeviationPct'> {
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
      const key = rowKey(row)
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
