import { mkdirSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { InvalidOptionError } from '@authlab/core'
import { captureEnvironment, loadAverage } from '@authlab/workspace'
import { filterCandidates, loadCandidates } from './discover/candidates.js'
import { onMeasureCore, placementNote } from './measure/placement.js'
import { CONTROL_FLAG, failedControl, summarizeRatio } from './measure/verdict.js'
import { adviceTerminal } from './report/advice-report.js'
import { writeReports } from './report/files.js'
import {
  renderFindings,
  renderRule,
  renderTerminal,
  type TerminalOptions,
  WITHHELD,
} from './report/terminal.js'
import { disagreementText } from './report/words.js'
import { RESULTS_FORMAT, type ResultsFile, type SuiteRecord } from './results/results.js'
import { runAcrossRuntimes } from './runtimes/across.js'
import type { Budget, Progress, Row, Suite, SuiteRow } from './types.js'

export interface RunOptions {
  /** The workspace root whose packages are discovered. */
  readonly root: string
  readonly suites: readonly Suite[]
  /** `--runtime`: run the portable suites inside each of these runtimes instead of this Node only. */
  readonly runtimes?: readonly string[]
  readonly filter?: string
  /** User modules given with `--candidate`, benchmarked beside the packages. */
  readonly candidateFiles?: readonly string[]
  readonly mode: 'quick' | 'full'
  readonly budget: Budget
  readonly outDir: string
  /** The command line as typed, recorded in the results. */
  readonly command: readonly string[]
  /** Seeds the round orders; recorded, so a schedule can be replayed. */
  readonly seed: number
  /** `--rtt` in ms, for the suites that call a remote service (recorded with the command line). */
  readonly simulatedRttMs?: number
  /** Versions of the harness's own tools, recorded with the packages'. */
  readonly toolVersions: Readonly<Record<string, string>>
  readonly stdout: (text: string) => void
  readonly progress: (suite: string) => Progress
  readonly color: boolean
  /** Every column in the terminal, instead of the compact table that fits 100 columns. */
  readonly wide?: boolean
  /** The compact table's width (a narrower terminal's own); default 100. */
  readonly width?: number
}

export interface RunOutput {
  readonly results: ResultsFile
  readonly files: readonly string[]
}

/** Picks suites by name; an unknown name is a usage error listing the known ones. */
export function selectSuites(all: readonly Suite[], names: readonly string[] | undefined): Suite[] {
  if (!names) return all.filter((s) => !s.onRequestOnly)
  return names.map((name) => {
    const suite = all.find((s) => s.name === name)
    if (!suite) {
      throw new InvalidOptionError(
        `unknown suite "${name}"; suites are: ${all.map((s) => s.name).join(', ')}`,
      )
    }
    return suite
  })
}

/**
 * The suite's name on its rows; a figure no clean round produced (NaN) becomes 0 with a flag, because
 * results files hold numbers only and a reader must not take it for a measurement.
 */
function stamp(suite: string, row: SuiteRow): Row {
  const details = Object.fromEntries(
    Object.entries(row.details).filter(([, v]) => typeof v === 'string' || Number.isFinite(v)),
  )
  if (Number.isFinite(row.value)) return { suite, ...row, details }
  return { suite, ...row, value: 0, details, flags: [...row.flags, 'no clean round: no figure'] }
}

/** `2026-11-30T101502Z-783aff9`: sortable, unique per run, names the commit measured. */
export function resultsStem(date: string, commit: string): string {
  return `${date.slice(0, 19).replaceAll(':', '')}Z-${commit.slice(0, 7)}`
}

function terminalOptions(options: RunOptions): TerminalOptions {
  return {
    color: options.color,
    wide: options.wide ?? false,
    ...(options.width ? { width: options.width } : {}),
  }
}

/**
 * A suite whose A/A control read better or worse publishes no decided verdict: identical code measured
 * as different says the harness, not the code, moved in this run. The control keeps its own verdict,
 * which is the evidence.
 */
export function withheldIfDisagreeing(rows: readonly Row[]): Row[] {
  const control = failedControl(rows)
  if (!control) return [...rows]
  const why = disagreementText(control)
  return rows.map((row) =>
    row.flags.includes(CONTROL_FLAG)
      ? row
      : {
          ...row,
          ratios: row.ratios.map((q) =>
            summarizeRatio({ label: q.baseline, against: q.against }, q.rounds, why),
          ),
        },
  )
}

/**
 * One suite on this Node, its table printed when it finishes. `interlude` (for a suite that spreads its
 * rounds) runs the suites after it; the ids suite's pin is released meanwhile, and its time is not the
 * suite's.
 */
async function runSuite(
  options: RunOptions,
  candidates: Parameters<Suite['run']>[0],
  suite: Suite,
  interlude: (() => Promise<void>) | undefined,
): Promise<SuiteRecord> {
  const progress = options.progress(suite.name)
  let awayMs = 0
  const timedInterlude =
    interlude &&
    (async () => {
      progress.note('the other suites run now; the remaining rounds after them')
      const left = performance.now()
      await interlude()
      awayMs += performance.now() - left
    })
  const ctx = {
    budget: options.budget,
    progress,
    cores: availableParallelism(),
    seed: options.seed,
    simulatedRttMs: options.simulatedRttMs,
  }
  const started = performance.now()
  const { rows, notes } =
    suite.placement === 'one-core'
      ? await onMeasureCore(async (cpu, away) => {
          const result = await suite.run(candidates, {
            ...ctx,
            ...(timedInterlude ? { interlude: () => away(timedInterlude) } : {}),
          })
          return { rows: result.rows, notes: [placementNote(cpu), ...result.notes] }
        })
      : await suite.run(candidates, { ...ctx, ...(timedInterlude ? { interlude: timedInterlude } : {}) })
  progress.note(`done in ${((performance.now() - started - awayMs) / 1000).toFixed(1)} s`)
  const stamped = withheldIfDisagreeing(rows.map((row) => stamp(suite.name, row)))
  const why = stamped.find((r) => r.ratios.some((q) => q.withheld))?.ratios.find((q) => q.withheld)?.withheld
  const record = {
    name: suite.name,
    description: suite.description,
    method: suite.method(options.budget),
    notes: why ? [...notes, `${WITHHELD}: ${why}.`] : notes,
    rows: stamped,
  }
  options.stdout(renderTerminal(record, terminalOptions(options)))
  return record
}

/**
 * The suites on this Node, one after another. A suite that spreads its rounds runs the suites after it
 * in its interlude, once, halfway through its own rounds, and finishes last; the results keep the order
 * the suites were named in.
 */
async function runSuites(
  options: RunOptions,
  candidates: Parameters<Suite['run']>[0],
): Promise<SuiteRecord[]> {
  const records = new Map<number, SuiteRecord>()
  const runFrom = async (first: number): Promise<void> => {
    for (let index = first; index < options.suites.length; index++) {
      if (records.has(index)) continue
      const suite = options.suites[index] as Suite
      let ran = false
      const interlude =
        suite.spreadsRounds && index < options.suites.length - 1
          ? async () => {
              if (ran) return
              ran = true
              await runFrom(index + 1)
            }
          : undefined
      records.set(index, await runSuite(options, candidates, suite, interlude))
    }
  }
  await runFrom(0)
  return options.suites.map((_, index) => records.get(index) as SuiteRecord)
}

/**
 * Discovers, runs the suites one after another (never two timing workloads at once: on a 2-core box a
 * second one steals the first one's core), on this Node or on each `--runtime`, prints each suite's
 * table, and writes the JSON, the Markdown with one SVG per chart, and the self-contained HTML report.
 */
export async function runBench(options: RunOptions): Promise<RunOutput> {
  const loaded = await loadCandidates(options.root, { files: options.candidateFiles ?? [] })
  const candidates = filterCandidates(loaded.candidates, options.filter)
  const { discovered } = loaded
  const skipped = [...loaded.skipped]
  for (const s of skipped) options.progress('discovery').note(`skipped ${s.name}: ${s.reason}`)
  const baseEnvironment = captureEnvironment(options.root, discovered, options.mode, options.toolVersions)
  const records: SuiteRecord[] = []
  let environment: typeof baseEnvironment = baseEnvironment
  options.stdout(renderRule(terminalOptions(options)))
  if (options.runtimes) {
    const across = await runAcrossRuntimes({ ...options, runtimes: options.runtimes })
    skipped.push(...across.skipped)
    environment = { ...baseEnvironment, runtimes: across.runtimes }
    for (const record of across.records) {
      records.push(record)
      options.stdout(renderTerminal(record, terminalOptions(options)))
    }
  } else {
    records.push(...(await runSuites(options, candidates)))
  }
  const run = {
    command: [...options.command],
    suites: options.suites.map((s) => s.name),
    filter: options.filter ?? null,
    candidateFiles: [...(options.candidateFiles ?? [])],
    seed: options.seed,
    loadAverageAtEnd: loadAverage(),
  }
  const results: ResultsFile = { format: RESULTS_FORMAT, environment, run, suites: records, skipped }
  // Advice first, the run's findings last: the final screen a person sees answers "what did this run find".
  options.stdout(adviceTerminal(results, options.wide ?? false, options.width))
  options.stdout(renderFindings(results, terminalOptions(options)))
  mkdirSync(options.outDir, { recursive: true })
  const stem = resultsStem(environment.date, environment.commit)
  const json = join(options.outDir, `${stem}.json`)
  writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`)
  const files = [json, ...(await writeReports(results, options.outDir, stem))]
  return { results, files }
}
