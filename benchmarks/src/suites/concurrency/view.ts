import type { Row } from '../../model/types.js'
import type { SuiteChart, SuiteView } from '../../model/view.js'
import type { LinePoint } from '../../report/charts.js'
import { lineChartSpec } from '../../report/charts.js'

/**
 * The speed-up of K concurrent hashes over one hash alone (each K row's ratio, per round), against the
 * line no hasher can cross: min(K, cores).
 */
function speedUp(rows: readonly Row[], cores: number): SuiteChart[] {
  const points: LinePoint[] = []
  const levels = new Set<number>()
  for (const row of rows) {
    const k = Number(/^K=(\d+)$/.exec(row.key.setting)?.[1])
    if (!Number.isFinite(k)) continue
    levels.add(k)
    const q = row.ratios[0]
    if (q) points.push({ series: row.label, x: k, y: q.value, low: q.low, high: q.high })
    else if (k === 1) points.push({ series: row.label, x: 1, y: 1 })
  }
  if (points.length === 0) return []
  const limit = `limit: cores ÷ hash time (${cores} cores)`
  for (const k of levels) points.push({ series: limit, x: k, y: Math.min(k, cores) })
  const spec = lineChartSpec({
    title: 'Speed-up of K concurrent hashes over one hash alone (band: 95 % interval)',
    xAxis: 'K concurrent hashes',
    yAxis: 'speed-up (× one hash alone)',
    points,
    logX: true,
  })
  return [{ name: 'speed-up', title: 'speed-up vs K against the cores ÷ hash-time limit', spec }]
}

/** No concurrency level in a summary: they answer claims (the findings print them) and fill the reports. */
export const view: SuiteView = { summary: () => false, columns: ['runs on'], charts: speedUp }
