import { defaultCharts, groupRows, pairChart, type SuiteView, slug } from '@authlab/benchmarks/harness'

/**
 * Login: throughput beside the GET /health p99 measured meanwhile. A hasher that blocks the event loop
 * can keep its logins/s and still answer health checks 10× later: only the right panel shows it. The
 * login chart is the suite's finding, so a README shows it first.
 */
export const view: SuiteView = {
  columns: ['GET /health p99 ms'],
  charts: (rows) =>
    [...groupRows(rows)].flatMap(([group, list]) =>
      list[0]?.key.operation === 'login'
        ? [
            {
              name: slug(group),
              title: `${group}: throughput and GET /health p99`,
              spec: pairChart(
                list,
                { title: `${group}: logins/s`, axis: 'logins/s (higher is better)' },
                { title: 'GET /health p99 meanwhile', axis: 'ms (lower is better)' },
                'GET /health p99 ms',
              ),
            },
          ]
        : defaultCharts('http', list),
    ),
  headline: (chart) => chart.name.startsWith('login'),
}
