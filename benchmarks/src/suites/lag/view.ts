import type { SuiteView } from '../../model/view.js'
import { groupRows, pairChart, seriesOf, slug } from '../../report/suite-charts.js'

/** Lag: the worst and the 99th-percentile event-loop delay while hashing, on the same rows. */
export const view: SuiteView = {
  columns: ['p99 delay ms', 'runs on'],
  charts: (rows) =>
    [...groupRows(rows)].map(([group, rows]) => ({
      name: slug(group),
      title: `lag · ${group}`,
      spec: pairChart(
        rows,
        { title: 'Longest event-loop delay', axis: `${rows[0]?.unit ?? 'ms'} (lower is better)` },
        { title: 'p99 event-loop delay', axis: 'ms (lower is better)' },
        'p99 delay ms',
        (row) => `runs on ${String(row.details['runs on'] ?? seriesOf(row))}`,
      ),
    })),
}
