import { InvalidOptionError } from '@authlab/core'
import { RUNTIME_IDS } from '@authlab/runtimes'
import { discoverPackages as discoverWorkspace, loadPackages } from '@authlab/workspace'
import { median } from '../measure/stats.js'
import { CONTROL_FLAG } from '../measure/verdict.js'
import type { SuiteRecord } from '../results/results.js'
import type { Budget, Progress, Row, Suite } from '../types.js'
import { groupsFor, PORTABLE_SUITES, type PortableSuite } from './groups.js'
import { measureRuntime, type RuntimeOutcome } from './measure.js'

/** `--runtime node,bun`: the ids, checked against the runtimes tools/runtimes can start. */
export function parseRuntimes(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined
  const ids = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  const unknown = ids.filter((id) => !RUNTIME_IDS.includes(id))
  if (ids.length === 0 || unknown.length > 0) {
    throw new InvalidOptionError(`--runtime takes ids from ${RUNTIME_IDS.join(', ')} (got "${value}")`)
  }
  return [...new Set(ids)]
}

/** The chosen suites that run in every runtime; any other is a usage error naming why. */
export function portableSuites(suites: readonly Suite[]): PortableSuite[] {
  return suites.map((s) => {
    if (!(PORTABLE_SUITES as readonly string[]).includes(s.name)) {
      throw new InvalidOptionError(
        `suite "${s.name}" runs on the current Node only; with --runtime choose from ${PORTABLE_SUITES.join(', ')}`,
      )
    }
    return s.name as PortableSuite
  })
}

export interface AcrossRuntimes {
  readonly records: SuiteRecord[]
  readonly skipped: { name: string; reason: string }[]
  readonly runtimes: { id: string; name: string; version: string }[]
}

/**
 * Runs the suites in each runtime, one runtime after another (never two timing workloads at once),
 * and merges them: one record per suite, each row carrying its runtime, ratios within that runtime;
 * then a record comparing the same candidate across runtimes. A runtime that cannot start becomes a
 * `skipped` entry with its reason.
 */
export async function runAcrossRuntimes(options: {
  root: string
  runtimes: readonly string[]
  suites: readonly Suite[]
  budget: Budget
  progress: (suite: string) => Progress
}): Promise<AcrossRuntimes> {
  const suites = portableSuites(options.suites)
  const outcomes = await loadPackages(discoverWorkspace(options.root))
  // A package that does not load on this Node is already reported by the bench's own discovery.
  const loaded = outcomes.flatMap((o) => (o.ok ? [o.pkg] : []))
  const progress = options.progress('runtimes')
  progress.plan(options.runtimes.reduce((n, id) => n + groupsFor(id, suites, loaded).length, 0))
  const results: RuntimeOutcome[] = []
  for (const id of options.runtimes) {
    const outcome = await measureRuntime(id, suites, loaded, {
      root: options.root,
      budget: options.budget,
      progress,
    })
    if (!outcome.ok) progress.note(`${id} skipped: ${outcome.reason}`)
    results.push(outcome)
  }
  return mergeRuntimes(options.suites, results)
}

/** One record per suite with every runtime's rows, plus the cross-runtime record; pure, for tests. */
export function mergeRuntimes(
  suites: readonly Pick<Suite, 'name' | 'description'>[],
  results: readonly RuntimeOutcome[],
): AcrossRuntimes {
  const ran = results.flatMap((r) => (r.ok ? [r] : []))
  const records: SuiteRecord[] = suites.map((suite) => ({
    name: suite.name,
    // Not the Node suite's description: here every runtime runs the shared rounds loop in wall time.
    description: `The ${suite.name} candidates inside each runtime (${ran.map((r) => r.label).join(', ') || 'none started'}): median rate over interleaved, reshuffled rounds (wall time), per-round ratios to that runtime's own baseline, an A/A control and a measured runsOn each.`,
    notes: [
      ...results.map((r) => (r.ok ? `${r.id}: ${r.label}` : `${r.id}: skipped: ${r.reason}`)),
      ...ran.flatMap((r) => r.notes),
      'Each runtime runs the same generated entry and rounds loop; a ratio divides by that runtime’s own baseline in the same rounds (wall time, performance.now).',
    ],
    rows: ran.flatMap((r) => r.rows.filter((row) => row.suite === suite.name)) as Row[],
  }))
  records.push(acrossRecord(ran))
  return {
    records,
    skipped: results.flatMap((r) => (r.ok ? [] : [{ name: `runtime ${r.id}`, reason: r.reason }])),
    runtimes: ran.map((r) => ({ id: r.id, ...r.reported })),
  }
}

/**
 * "Same candidate, runtime A vs runtime B": each candidate's median rate per runtime, as a multiple
 * of the first runtime that measured it. Runtimes ran one after another, so these are not paired by
 * round: the machine's state is not cancelled, and the row says so.
 */
function acrossRecord(ran: readonly Extract<RuntimeOutcome, { ok: true }>[]): SuiteRecord {
  const byKey = new Map<string, Row[]>()
  for (const r of ran) {
    for (const row of r.rows) {
      if (row.flags.includes(CONTROL_FLAG)) continue
      const key = `${row.suite}: ${row.group.split(' · ')[0]}\u0000${row.candidate}`
      byKey.set(key, [...(byKey.get(key) ?? []), row as Row])
    }
  }
  const rows: Row[] = []
  for (const [key, list] of byKey) {
    if (list.length < 2) continue
    const [group = ''] = key.split('\u0000')
    const first = list[0] as Row
    for (const row of list) {
      rows.push({
        suite: 'runtimes',
        group: `${group} — same candidate across runtimes`,
        candidate: `${row.candidate}@${row.runtime}`,
        label: `${row.label} · ${row.runtime}`,
        value: row.value,
        unit: row.unit,
        higherIsBetter: true,
        runtime: row.runtime,
        ratios: [],
        details: {
          [`× vs ${first.runtime}`]: row.value / first.value,
          'rounds min': Math.min(...(row.rounds ?? [row.value])),
          'rounds max': Math.max(...(row.rounds ?? [row.value])),
          'rounds median': median(row.rounds ?? [row.value]),
          'runsOn (measured)': row.details['runsOn (measured)'] ?? '',
        },
        flags: ['runtimes ran one after another: not paired by round'],
      })
    }
  }
  return {
    name: 'runtimes',
    description:
      'The same candidate in each runtime: median rate, and its multiple of the first runtime that ran it.',
    notes: ['Runtimes ran one after another; compare these with the min–max of their rounds in mind.'],
    rows,
  }
}
