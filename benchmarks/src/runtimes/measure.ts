import { join } from 'node:path'
import { type Runtime, resolveRuntime, runInRuntime } from '@authlab/runtimes'
import { writeMeasuringEntry } from '@authlab/runtimes/entry'
import type { LoadedPackage } from '@authlab/workspace'
import { shuffledRounds } from '../measure/rounds.js'
import { median } from '../measure/stats.js'
import { CONTROL_FLAG, perRoundRatios, summarizeRatio } from '../measure/verdict.js'
import type { Budget, Progress, SuiteRow } from '../types.js'
import { type Candidate, type Group, groupsFor, type PortableSuite } from './groups.js'

/** What one runtime gave: its rows per suite, what it said about itself, and what it could not load. */
export type RuntimeOutcome =
  | {
      readonly id: string
      readonly ok: true
      readonly label: string
      readonly reported: { name: string; version: string }
      readonly rows: readonly (SuiteRow & { suite: PortableSuite; runtime: string })[]
      readonly notes: readonly string[]
    }
  | { readonly id: string; readonly ok: false; readonly reason: string }

interface Measured {
  runtime: { name: string; version: string }
  rates: Record<string, number[]>
  lagMs: Record<string, number>
  opMs: Record<string, number>
}

/**
 * Measures `suites` inside runtime `id`: one generated entry per group, run with the shared rounds loop
 * and the loop-lag probe. A runtime that cannot start is an outcome with its reason, never a silent
 * drop; a candidate it cannot load is left out with a note.
 */
export async function measureRuntime(
  id: string,
  suites: readonly PortableSuite[],
  loaded: readonly LoadedPackage[],
  options: { root: string; budget: Budget; progress: Progress; seed?: number },
): Promise<RuntimeOutcome> {
  const resolved = resolveRuntime(id)
  if (!resolved.ok) return { id, ok: false, reason: resolved.reason }
  const { runtime } = resolved
  const rows: (SuiteRow & { suite: PortableSuite; runtime: string })[] = []
  const notes: string[] = []
  let reported: { name: string; version: string } | undefined
  for (const group of groupsFor(id, suites, loaded)) {
    options.progress.step(`${id} · ${group.group}`)
    const dir = join(options.root, 'tools/runtimes/generated')
    const rounds = group.suite === 'ids' ? options.budget.ids.rounds : options.budget.hash.rounds
    const input = {
      rounds,
      // Every round's order, from the seeded rule every suite uses; the loop keeps only the ids it loaded.
      orders: shuffledRounds(
        group.candidates.map((c) => c.id),
        rounds,
        options.seed ?? 1,
      ),
      minBatchMs: group.suite === 'ids' ? PORTABLE_ID_BATCH_MS : options.budget.hash.roundMs,
      lagProbe: true,
    }
    const run = (candidates: readonly Candidate[]) =>
      runInRuntime(runtime, writeMeasuringEntry(dir, `bench-${id}-${group.suite}`, [...candidates]), input, {
        timeoutMs: 600_000,
      }) as Promise<Measured>
    let measured: Measured
    try {
      measured = await run(group.candidates)
    } catch (error) {
      const required = group.candidates.filter((c) => !c.optional)
      if (required.length === group.candidates.length)
        return { id, ok: false, reason: `${group.group}: ${firstLine(error)}` }
      // A framework's Node-only code failed to load here: measure the rest, and say what was left out.
      notes.push(
        `${runtime.label}: ${group.candidates
          .filter((c) => c.optional)
          .map((c) => c.id)
          .join(', ')} left out: ${firstLine(error)}`,
      )
      try {
        measured = await run(required)
      } catch (again) {
        return { id, ok: false, reason: `${group.group}: ${firstLine(again)}` }
      }
    }
    reported = measured.runtime
    notes.push(...(group.notes ?? []))
    rows.push(...rowsOf(group, measured, runtime))
  }
  if (!reported) return { id, ok: false, reason: 'no package claims this runtime for the chosen suites' }
  return { id, ok: true, label: `${runtime.label} ${reported.version}`, reported, rows, notes }
}

/** An ids batch in another runtime lasts at least this long: browsers coarsen performance.now to ~1 ms. */
const PORTABLE_ID_BATCH_MS = 20

/** Below this a single call is too short for a 1 ms timer to tell whether it held the loop. */
const JUDGED_MS = 5

/** Measured here, not declared: a call that holds a 1 ms timer back for half its length blocks. */
export function measuredRunsOn(lagMs: number, opMs: number): string {
  if (opMs < JUDGED_MS) return `call under ${JUDGED_MS} ms: not judged`
  return lagMs >= opMs / 2 ? 'blocks the loop' : 'loop free'
}

const firstLine = (error: unknown) => String((error as Error).message ?? error).split('\n')[0] ?? ''

/** Rows of one group: median rate, per-round ratios to the group's baseline in the same runtime and run. */
function rowsOf(group: Group, m: Measured, runtime: Runtime) {
  const present = group.candidates.filter((c) => m.rates[c.id])
  const rates = (c: Candidate | undefined) => (c ? (m.rates[c.id] ?? []) : [])
  const base = present.find((c) => c.id === group.baseline)
  const aa = present.find((c) => c.id === `${group.baseline} (A/A)`)
  return present.map((c) => {
    const lag = m.lagMs[c.id] ?? 0
    const op = m.opMs[c.id] ?? 0
    return {
      suite: group.suite,
      runtime: runtime.id,
      group: `${group.group} · ${runtime.id}`,
      candidate: c.id,
      label: c.label,
      value: median(rates(c)),
      unit: group.unit,
      higherIsBetter: true,
      rounds: rates(c),
      ratios:
        base && c !== base ? [summarizeRatio(base.label, perRoundRatios(rates(c), rates(base), true))] : [],
      details: {
        'one call ms': op,
        'max loop lag ms': lag,
        'runsOn (measured)': measuredRunsOn(lag, op),
        runtime: `${m.runtime.name} ${m.runtime.version}`,
      },
      flags: c === base ? ['baseline'] : c === aa ? [CONTROL_FLAG] : [],
    }
  })
}
