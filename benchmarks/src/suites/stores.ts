import { createUserDirectory } from '@authlab/servers'
import {
  cellText,
  type GeneratorUnderTest,
  LOGIN,
  runStore,
  STORES,
  type StoreReport,
} from '@authlab/store-matrix'
import { FULL } from '../measure/budget.js'
import type { Suite, SuiteRow } from '../types.js'

const BASELINE_STORE = 'memory'

/** Quick runs the same checks with 200 concurrent sessions per cell instead of 1,000. */
const SESSIONS_UNDER_LOAD = { quick: 200, full: 1000 } as const

function compatibilityRows(report: StoreReport, labels: ReadonlyMap<string, string>): SuiteRow[] {
  const cells: SuiteRow[] = report.cells.map(({ generator, framework, outcome }) => ({
    group: `compatibility · ${report.label} · ${framework}`,
    candidate: generator,
    label: labels.get(generator) ?? generator,
    value: outcome.ok ? 1 : 0,
    unit: 'compatible',
    higherIsBetter: true,
    ratios: [],
    details: { result: cellText(outcome) },
    flags: outcome.ok ? [] : [`${outcome.step}: ${outcome.reason}`],
  }))
  const lengths: SuiteRow[] = report.lengths.map(({ length, framework, outcome }) => ({
    group: `ID length limits · ${report.label}`,
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
        flags: report.store === BASELINE_STORE ? ['baseline'] : [],
      }
    })
  })
}

export const storesSuite: Suite = {
  name: 'stores',
  onRequestOnly: true,
  description:
    'The store-compatibility matrix: every generator × real session store × express-session and @fastify/session, ID length limits, hostile cookies, and store.get/set latency per store.',
  async run(candidates, ctx) {
    const full = ctx.budget === FULL
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
    const sessionsUnderLoad = full ? SESSIONS_UNDER_LOAD.full : SESSIONS_UNDER_LOAD.quick
    ctx.progress.plan(STORES.length)
    const reports: StoreReport[] = []
    for (const store of STORES) {
      ctx.progress.step(store.label)
      reports.push(
        await runStore(store, {
          generators,
          users,
          secret: 'authlab-bench-stores-suite-secret-32+',
          sessionsUnderLoad,
        }),
      )
    }
    const notes = [
      `${sessionsUnderLoad} concurrent sessions per cell (--full runs 1,000); logins verified with ${hashCandidate.id}.`,
      ...reports.flatMap((r) => (r.status === 'ran' ? [] : [`${r.label} not run: ${r.message}`])),
      ...reports.flatMap((r) =>
        Object.entries(r.serverErrors).map(
          ([message, count]) => `${r.label}: server error ×${count}: ${message}`,
        ),
      ),
    ]
    return { rows: [...latencyRows(reports), ...reports.flatMap((r) => compatibilityRows(r, labels))], notes }
  },
}
