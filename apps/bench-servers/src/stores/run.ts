import type { Candidates, SuiteContext, SuiteRow } from '@authlab/benchmarks/harness'
import { createUserDirectory } from '@authlab/servers'
import {
  cellText,
  ensureCluster,
  type GeneratorUnderTest,
  LOGIN,
  runStore,
  STORES,
  type StoreReport,
} from '@authlab/store-matrix'
import type { StoresBudget } from '../budget.js'
import { clusterThroughputRows, SECRET } from '../cluster-throughput.js'

const BASELINE_STORE = 'memory'

function compatibilityRows(report: StoreReport, labels: ReadonlyMap<string, string>): SuiteRow[] {
  const cells: SuiteRow[] = report.cells.map(({ generator, framework, outcome }) => ({
    group: `compatibility · ${report.label} · ${framework}`,
    key: { setting: `${report.store}/${framework}`, operation: 'serve' },
    candidate: generator,
    label: labels.get(generator) ?? generator,
    value: outcome.ok ? 1 : 0,
    unit: 'compatible',
    higherIsBetter: true,
    ratios: [],
    details: { result: cellText(outcome) },
    flags: outcome.ok ? [] : [{ kind: 'incompatible', step: outcome.step, reason: outcome.reason }],
  }))
  const lengths: SuiteRow[] = report.lengths.map(({ length, framework, outcome }) => ({
    group: `ID length limits · ${report.label}`,
    key: { setting: `${report.store}/${framework}`, operation: `length-${length}` },
    candidate: `length-${length}·${framework}`,
    label: `${length} characters · ${framework}`,
    value: outcome.ok ? 1 : 0,
    unit: 'kept intact',
    higherIsBetter: true,
    ratios: [],
    details: { result: cellText(outcome) },
    flags: [],
  }))
  return [...cells, ...lengths]
}

function latencyRows(reports: readonly StoreReport[]): SuiteRow[] {
  const base = reports.find((r) => r.store === BASELINE_STORE)?.latency
  return reports.flatMap((report) => {
    const latency = report.latency
    if (!latency) return []
    return (['set', 'get'] as const).map((op) => {
      const value = op === 'set' ? latency.setMedianMs : latency.getMedianMs
      const baseValue = base && (op === 'set' ? base.setMedianMs : base.getMedianMs)
      return {
        group: `store.${op} latency`,
        key: { setting: 'latency', operation: op },
        candidate: report.store,
        label: report.label,
        value,
        unit: `ms/${op}`,
        higherIsBetter: false,
        samples: latency.samples,
        // One sampling run per store, no rounds: the memory store's figure is shown beside it, not as a ratio.
        ratios: [],
        details: {
          p95: op === 'set' ? latency.setP95Ms : latency.getP95Ms,
          ...(baseValue ? { [`${BASELINE_STORE} ms`]: baseValue } : {}),
        },
        flags: report.store === BASELINE_STORE ? [{ kind: 'baseline' as const }] : [],
      }
    })
  })
}

/** Every store of the matrix with every generator, then the cluster under load. */
export async function runStores(candidates: Candidates, ctx: SuiteContext<StoresBudget>) {
  const hashCandidate = candidates.hashers[0]
  if (!hashCandidate)
    return { rows: [], notes: ['no hasher discovered: POST /login cannot be checked, suite not run'] }
  const users = await createUserDirectory(hashCandidate.create(), { [LOGIN.username]: LOGIN.password })
  const generators: GeneratorUnderTest[] = candidates.ids.map((c) => ({
    key: c.id,
    label: c.label,
    generate: c.create(),
  }))
  const labels = new Map(generators.map((g) => [g.key, g.label]))
  ctx.progress.plan(STORES.length + 1)
  const reports: StoreReport[] = []
  for (const store of STORES) {
    ctx.progress.step(store.label)
    const options = { generators, users, secret: SECRET, sessionsUnderLoad: ctx.budget.sessions }
    reports.push(await runStore(store, options))
  }
  // The cluster is started like the tests start it (scripts/redis-cluster.sh); one that will not form
  // leaves its rows failing with the reason in the notes.
  const clusterError = await ensureCluster().then(
    () => undefined,
    (error: unknown) => String(error),
  )
  ctx.progress.step('single Redis vs Redis Cluster under HTTP load')
  const throughput = await clusterThroughputRows(users, ctx, (reason) => ctx.failed('cluster', reason))
  const notes = [
    ...(clusterError ? [clusterError] : []),
    `Logins verified with ${hashCandidate.id}.`,
    ...reports.flatMap((r) => (r.status === 'ran' ? [] : [`${r.label} not run: ${r.message}`])),
    ...reports.flatMap((r) =>
      Object.entries(r.serverErrors).map(
        ([message, count]) => `${r.label}: server error ×${count}: ${message}`,
      ),
    ),
  ]
  const rows: SuiteRow[] = [
    ...throughput,
    ...latencyRows(reports),
    ...reports.flatMap((r) => compatibilityRows(r, labels)),
  ]
  return { rows, notes }
}
