/**
 * `--runtime`: the portable suites (those that declare `portable`) run inside each listed runtime, one
 * runtime after another, and merge into one results file. A runtime is an id of tools/runtimes
 * (RUNTIME_IDS): adding one there, and claiming it in the packages' `authlab.runtimes`, is all the bench
 * needs (see benchmarks/README.md, "Adding a runtime").
 */
import { InvalidOptionError } from '@authlab/core'
import { RUNTIME_IDS } from '@authlab/runtimes'
import { discoverPackages, loadPackages } from '@authlab/workspace'
import type { AnySuite, Mode, Progress } from '../harness/suite.js'
import { hasFlag, type Row, type SuiteRecord } from '../model/types.js'
import { median } from '../stats/stats.js'
import { groupsIn, measureRuntime, type RuntimeOutcome } from './measure.js'

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

/** The chosen suites, each one that runs in every runtime; any other is a usage error naming why. */
export function portableSuites(suites: readonly AnySuite[], all: readonly AnySuite[]): AnySuite[] {
  const portable = all.filter((s) => s.portable).map((s) => s.name)
  for (const s of suites)
    if (!s.portable)
      throw new InvalidOptionError(
        `suite "${s.name}" runs on the current Node only; with --runtime choose from ${portable.join(', ')}`,
      )
  return [...suites]
}

export interface AcrossRuntimes {
  readonly records: SuiteRecord[]
  readonly skipped: { name: string; reason: string }[]
  readonly runtimes: { id: string; name: string; version: string }[]
}

/**
 * Runs the suites in each runtime, one runtime after another (never two timing workloads at once),
 * and merges them: one record per suite, each row carrying its runtime, ratios within that runtime;
 * then a record comparing the same candidate across runtimes.
 */
export async function runAcrossRuntimes(options: {
  root: string
  runtimes: readonly string[]
  suites: readonly AnySuite[]
  mode: Mode
  progress: (suite: string) => Progress
}): Promise<AcrossRuntimes> {
  const outcomes = await loadPackages(discoverPackages(options.root))
  // A package that does not load on this Node is already reported by the bench's own discovery.
  const loaded = outcomes.flatMap((o) => (o.ok ? [o.pkg] : []))
  const progress = options.progress('runtimes')
  const groups = (id: string) => options.suites.flatMap((s) => groupsIn(id, s, options.mode, loaded)).length
  progress.plan(options.runtimes.reduce((n, id) => n + groups(id), 0))
  const results: RuntimeOutcome[] = []
  for (const id of options.runtimes) {
    const outcome = await measureRuntime(id, options.suites, loaded, { ...options, progress })
    if (!outcome.ok) progress.note(`${id} skipped: ${outcome.reason}`)
    results.push(outcome)
  }
  return mergeRuntimes(options.suites, results)
}

/** How the runtime columns are timed, said once wherever a cross-runtime run is reported. */
export const RUNTIMES_METHOD =
  "Each runtime runs the same generated entry and rounds loop; a ratio divides by that runtime's own baseline in the same rounds. Batches are timed by the wall clock (performance.now), except in workerd: Workers advance their clocks only at I/O, so there each batch is timed by the workerd process's CPU time, read from /proc (the scheduler's per-thread schedstat) around it, and its rates are per CPU-second (the unit says so). Each row also keeps the median ms per call of the wall clock and, where the runtime's process CPU can be read (workerd; process.cpuUsage() in Node, Bun and Deno; never in browsers), of CPU time: what the costs table and the advice per platform quote."

/** One record per suite with every runtime's rows, plus the cross-runtime record; pure, for tests. */
export function mergeRuntimes(
  suites: readonly Pick<AnySuite, 'name' | 'description'>[],
  results: readonly RuntimeOutcome[],
): AcrossRuntimes {
  const ran = results.flatMap((r) => (r.ok ? [r] : []))
  const records: SuiteRecord[] = suites.map((suite) => ({
    name: suite.name,
    // Not the Node suite's description: here every runtime runs the shared rounds loop in wall time.
    description: `The ${suite.name} candidates inside each runtime (${ran.map((r) => r.label).join(', ') || 'none started'}): median rate over interleaved, reshuffled rounds, per-round ratios to that runtime's own baseline, an A/A control and a measured runsOn each.`,
    method: RUNTIMES_METHOD,
    processRounds: false,
    notes: [
      ...results.map((r) => (r.ok ? `${r.id}: ${r.label}` : `${r.id}: skipped: ${r.reason}`)),
      ...ran.flatMap((r) => r.notes),
    ],
    failures: [],
    rows: ran.flatMap((r) => r.rows.filter((row) => row.suite === suite.name)),
  }))
  records.push(acrossRecord(ran))
  return {
    records,
    skipped: results.flatMap((r) => (r.ok ? [] : [{ name: `runtime ${r.id}`, reason: r.reason }])),
    runtimes: ran.map((r) => ({ id: r.id, ...r.reported })),
  }
}

/** One candidate's row in one runtime, beside the first runtime that measured it. */
function acrossRow(row: Row, first: Row): Row {
  return {
    suite: 'runtimes',
    group: `${row.suite}: ${row.group} — same candidate across runtimes`,
    key: { setting: `${row.suite}:${row.key.setting}`, operation: row.key.operation },
    candidate: `${row.candidate}@${row.runtime}`,
    label: `${row.label} · ${row.runtime}`,
    value: row.value,
    unit: row.unit,
    higherIsBetter: true,
    ...(row.runtime ? { runtime: row.runtime } : {}),
    ratios: [],
    details: {
      [`× vs ${first.runtime}`]: row.value / first.value,
      'rounds min': Math.min(...(row.rounds ?? [row.value])),
      'rounds max': Math.max(...(row.rounds ?? [row.value])),
      'rounds median': median(row.rounds ?? [row.value]),
      'runsOn (measured)': row.details['runsOn (measured)'] ?? '',
    },
    flags: [{ kind: 'not-paired' }],
  }
}

/**
 * "Same candidate, runtime A vs runtime B": each candidate's median rate per runtime, as a multiple
 * of the first runtime that measured it. Runtimes ran one after another, so these are not paired by
 * round: the machine's state is not cancelled, and the row says so.
 */
function acrossRecord(ran: readonly Extract<RuntimeOutcome, { ok: true }>[]): SuiteRecord {
  const byKey = new Map<string, Row[]>()
  for (const row of ran.flatMap((r) => r.rows)) {
    if (hasFlag(row, 'control')) continue
    const key = [row.suite, row.key.setting, row.key.operation, row.candidate].join('\u0000')
    byKey.set(key, [...(byKey.get(key) ?? []), row])
  }
  const rows = [...byKey.values()]
    .filter((list) => list.length >= 2)
    .flatMap((list) => list.map((row) => acrossRow(row, list[0] as Row)))
  return {
    name: 'runtimes',
    description:
      'The same candidate in each runtime: median rate, and its multiple of the first runtime that ran it.',
    method: '',
    processRounds: false,
    notes: ['Runtimes ran one after another; compare these with the min–max of their rounds in mind.'],
    failures: [],
    rows,
  }
}
