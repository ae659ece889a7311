import { join } from 'node:path'
import { type Runtime, resolveRuntime, runInRuntime } from '@authlab/runtimes'
import { writeMeasuringEntry } from '@authlab/runtimes/entry'
import type { LoadedPackage } from '@authlab/workspace'
import { absentNotes } from '../discover/runtime-claims.js'
import { shuffledRounds } from '../harness/rounds.js'
import type { AnySuite, Mode, Progress, SuiteRow } from '../harness/suite.js'
import { type Flag, PER_CALL } from '../model/types.js'
import { median } from '../stats/stats.js'
import { perRoundRatios, summarizeRatio } from '../stats/verdict.js'
import type { RuntimeCandidate, RuntimeGroup } from './group.js'

type RuntimeRow = SuiteRow & { readonly suite: string; readonly runtime: string }

/** What one runtime gave: its rows per suite, what it said about itself, and what it could not load. */
export type RuntimeOutcome =
  | {
      readonly id: string
      readonly ok: true
      readonly label: string
      readonly reported: { name: string; version: string }
      readonly rows: readonly RuntimeRow[]
      readonly notes: readonly string[]
    }
  | { readonly id: string; readonly ok: false; readonly reason: string }

interface Measured {
  runtime: { name: string; version: string }
  rates: Record<string, number[]>
  lagMs: Record<string, number>
  opMs: Record<string, number>
  /** The batch clock (tools/runtimes rounds.mjs): `process-cpu` in workerd, else the wall clock. */
  clock?: { name: string }
  /** Each round's batch again per call: wall ms, and CPU ms where the runtime reads it. */
  perCall?: { wallMs: Record<string, number[]>; cpuMs?: Record<string, number[]> }
}

/** A portable suite's groups in one runtime, with the rounds and batch its budget gives them. */
export function groupsIn(runtime: string, suite: AnySuite, mode: Mode, loaded: readonly LoadedPackage[]) {
  const claiming = loaded.filter((pkg) => pkg.runtimes.includes(runtime as never))
  const budget = suite.budget[mode]
  const minBatchMs = suite.portable?.minBatchMs(budget) ?? 0
  return (suite.portable?.groups(runtime, claiming) ?? []).map((group) => ({
    suite,
    group,
    rounds: budget.rounds as number,
    minBatchMs,
  }))
}

export interface RuntimeRun {
  readonly root: string
  readonly mode: Mode
  readonly progress: Progress
  readonly seed?: number
}

const firstLine = (error: unknown) => String((error as Error).message ?? error).split('\n')[0] ?? ''

/**
 * One group in one runtime, with the candidates it ran (a prepared group's, once what they call is up);
 * a framework's Node-only code that fails to load is left out, and said so.
 */
async function measureGroup(
  runtime: Runtime,
  job: ReturnType<typeof groupsIn>[number],
  options: RuntimeRun,
  notes: string[],
): Promise<{ measured: Measured; group: RuntimeGroup }> {
  const { rounds, minBatchMs } = job
  const prepared = await job.group.prepare?.()
  const group = prepared ? { ...job.group, candidates: prepared.candidates } : job.group
  notes.push(...(prepared?.notes ?? []))
  const input = {
    rounds,
    // Every round's order, from the seeded rule every suite uses; the loop keeps only the ids it loaded.
    orders: shuffledRounds(
      group.candidates.map((c) => c.id),
      rounds,
      options.seed ?? 1,
    ),
    minBatchMs,
    lagProbe: true,
  }
  const dir = join(options.root, 'tools/runtimes/generated')
  const run = async (candidates: readonly RuntimeCandidate[]) => ({
    measured: (await runInRuntime(
      runtime,
      writeMeasuringEntry(dir, `bench-${runtime.id}-${job.suite.name}`, [...candidates]),
      input,
      { timeoutMs: 600_000 },
    )) as Measured,
    group,
  })
  try {
    return await run(group.candidates)
  } catch (error) {
    const required = group.candidates.filter((c) => !c.optional)
    if (required.length === group.candidates.length) throw error
    const left = group.candidates.filter((c) => c.optional).map((c) => c.id)
    notes.push(`${runtime.label}: ${left.join(', ')} left out: ${firstLine(error)}`)
    return await run(required)
  } finally {
    await prepared?.close()
  }
}

/**
 * Measures the portable `suites` inside runtime `id`: one generated entry per group, run with the shared
 * rounds loop and the loop-lag probe. A runtime that cannot start is an outcome with its reason, never a
 * silent drop; a candidate it cannot load is left out with a note.
 */
export async function measureRuntime(
  id: string,
  suites: readonly AnySuite[],
  loaded: readonly LoadedPackage[],
  options: RuntimeRun,
): Promise<RuntimeOutcome> {
  const resolved = resolveRuntime(id)
  if (!resolved.ok) return { id, ok: false, reason: resolved.reason }
  const { runtime } = resolved
  const rows: RuntimeRow[] = []
  const kinds = new Set(suites.flatMap((s) => s.portable?.kinds ?? []))
  const notes = absentNotes(id, loaded, kinds)
  let reported: { name: string; version: string } | undefined
  for (const job of suites.flatMap((suite) => groupsIn(id, suite, options.mode, loaded))) {
    options.progress.step(`${id} · ${job.group.group}`)
    let ran: Awaited<ReturnType<typeof measureGroup>>
    try {
      ran = await measureGroup(runtime, job, options, notes)
    } catch (error) {
      return { id, ok: false, reason: `${job.group.group}: ${firstLine(error)}` }
    }
    reported = ran.measured.runtime
    notes.push(...(job.group.notes ?? []))
    rows.push(...rowsOf(job.suite.name, ran.group, ran.measured, runtime))
  }
  if (!reported) return { id, ok: false, reason: 'no package claims this runtime for the chosen suites' }
  return { id, ok: true, label: `${runtime.label} ${reported.version}`, reported, rows, notes }
}

/** Below this a single call is too short for a 1 ms timer to tell whether it held the loop. */
const JUDGED_MS = 5

/** Measured here, not declared: a call that holds a 1 ms timer back for half its length blocks. */
export function measuredRunsOn(lagMs: number, opMs: number): string {
  if (opMs < JUDGED_MS) return `call under ${JUDGED_MS} ms: not judged`
  return lagMs >= opMs / 2 ? 'blocks the loop' : 'loop free'
}

/**
 * The median over rounds of each call's wall time and, where the runtime reads it, its process's CPU
 * time: what the advice and the costs table quote per login (src/advice/runtime-costs.ts reads them).
 */
function perCallDetails(m: Measured, id: string): Record<string, number> {
  const wall = m.perCall?.wallMs[id] ?? []
  const cpu = m.perCall?.cpuMs?.[id] ?? []
  return {
    ...(wall.length > 0 ? { [PER_CALL.wallMs]: median(wall) } : {}),
    ...(cpu.length > 0 ? { [PER_CALL.cpuMs]: median(cpu) } : {}),
  }
}

/** Rows of one group: median rate, per-round ratios to the group's baseline in the same runtime and run. */
function rowsOf(suite: string, group: RuntimeGroup, m: Measured, runtime: Runtime): RuntimeRow[] {
  const cpu = m.clock?.name === 'process-cpu'
  const present = group.candidates.filter((c) => m.rates[c.id])
  const rates = (c: RuntimeCandidate | undefined) => (c ? (m.rates[c.id] ?? []) : [])
  const base = present.find((c) => c.id === group.baseline)
  const aa = present.find((c) => c.id === `${group.baseline} (A/A)`)
  return present.map((c) => {
    const [lag, op] = [m.lagMs[c.id] ?? 0, m.opMs[c.id] ?? 0]
    const flags: Flag[] = c === base ? [{ kind: 'baseline' }] : c === aa ? [{ kind: 'control' }] : []
    return {
      suite,
      runtime: runtime.id,
      group: group.group,
      key: group.key,
      candidate: c.id,
      label: c.label,
      value: median(rates(c)),
      // workerd's rates are per second of its process's CPU time: the unit says so in every output.
      unit: cpu ? group.unit.replace(/\/s$/, '/CPU-s') : group.unit,
      higherIsBetter: true,
      rounds: rates(c),
      ratios:
        base && c !== base
          ? [
              summarizeRatio(
                { against: base.id, label: base.label },
                perRoundRatios(rates(c), rates(base), true),
              ),
            ]
          : [],
      details: {
        'one call ms': op,
        'max loop lag ms': lag,
        'runsOn (measured)': measuredRunsOn(lag, op),
        runtime: `${m.runtime.name} ${m.runtime.version}`,
        ...perCallDetails(m, c.id),
      },
      flags,
    }
  })
}
