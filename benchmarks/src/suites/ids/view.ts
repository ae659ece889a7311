import type { Row } from '../../model/types.js'
import type { SuiteChart, SuiteView } from '../../model/view.js'
import { defaultCharts, numberDetail, pairChart } from '../../report/suite-charts.js'

/** IDs: how fast, and what a surviving ID costs the heap, on the same rows. */
function speedAndHeap(rows: readonly Row[]): SuiteChart[] {
  const withHeap = rows.filter((r) => numberDetail(r, 'heap B/survivor') !== undefined)
  if (withHeap.length === 0) return []
  const spec = pairChart(
    withHeap,
    { title: 'IDs per CPU-second', axis: 'IDs/s (higher is better; whisker: 95 % interval of the rounds)' },
    { title: 'Heap retained per surviving ID', axis: 'bytes per survivor (lower is better)' },
    'heap B/survivor',
  )
  return [{ name: 'speed-and-heap', title: 'IDs/s and retained heap per survivor', spec }]
}

export const view: SuiteView = {
  columns: ['heap B/survivor'],
  charts: (rows) => [...speedAndHeap(rows), ...defaultCharts('ids', rows)],
}
