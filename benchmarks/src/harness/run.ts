import { mkdirSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { captureEnvironment, loadAverage } from '@authlab/workspace'
import { portableHashers } from '../advice/portable.js'
import { filterCandidates, loadCandidates } from '../discover/candidates.js'
import type { Candidates } from '../model/candidates.js'
import { type Failure, RESULTS_FORMAT, type ResultsFile, type Row, type SuiteRecord } from '../model/types.js'
import type { Views } from '../model/view.js'
import { writeReports } from '../report/files.js'
import { renderFindings, renderRule, renderTerminal, type TerminalOptions } from '../report/terminal.js'
import { renderAdvice } from '../report/terminal-advice.js'
import { runAcrossRuntimes } from '../runtimes/across.js'
import { decideRows } from '../stats/decide.js'
import { onMeasureCore, placementNote } from './placement.js'
import type { AnySuite, Mode, Progress, SuiteRow } from './suite.js'

export interface RunOptions {
  /** The workspace root whose packages are discovered. */
  readonly root: string
  /** The suites to run, and every suite (the views of the reports, the portable ones of `--runtime`). */
  readonly suites: readonly AnySuite[]
  readonly all: readonly AnySuite[]
  /** `--runtime`: run the portable suites inside each of these runtimes instead of this Node only. */
  readonly runtimes?: readonly string[]
  readonly filter?: string
  /** User modules given with `--candidate`, benchmarked beside the packages. */
  readonly candidateFiles?: readonly string[]
  readonly mode: Mode
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
  readonly terminal: TerminalOptions
}

/** Each suite's view, by name, from the declarations. */
export const viewsOf =
  (suites: readonly AnySuite[]): Views =>
  (name) =>
    suites.find((s) => s.name === name)?.view ?? {}

/**
 * The suite's name on its rows; a figure no clean round produced (NaN) becomes 0 with a flag, because
 * results files hold numbers only and a reader must not take it for a measurement.
 */
function stamp(suite: string, row: SuiteRow): Row {
  const details = Object.fromEntries(
    Object.entries(row.details).filter(([, v]) => typeof v === 'string' || Number.isFinite(v)),
  )
  if (Number.isFinite(row.value)) return { suite, ...row, details }
  return { suite, ...row, value: 0, details, flags: [...row.flags, { kind: 'no-figure' }] }
}

/** `2026-11-30T101502Z-783aff9`: sortable, unique per run, names the commit measured. */
export function resultsStem(date: string, commit: string): string {
  return `${date.slice(0, 19).replaceAll(':', '')}Z-${commit.slice(0, 7)}`
}

/**
 * One suite on this Node, its table printed when it finishes. `interlude` (for a suite that spreads its
 * rounds) runs the suites after it; the ids suite's pin is released meanwhile, and its time is not the
 * suite's.
 */
async function runSuite(
  options: RunOptions,
  candidates: Candidates,
  suite: AnySuite,
  interlude?: () => Promise<void>,
) {
  const progress = options.progress(suite.name)
  const failures: Failure[] = []
  let awayMs = 0
  const timed =
    interlude &&
    (async () => {
      progress.note('the other suites run now; the remaining rounds after them')
      const left = performance.now()
      await interlude()
      awayMs += performance.now() - left
    })
  const budget = suite.budget[options.mode]
  const ctx = {
    budget,
    mode: options.mode,
    progress,
    cores: availableParallelism(),
    seed: options.seed,
    simulatedRttMs: options.simulatedRttMs,
    failed: (candidate: string, reason: string) => void failures.push({ candidate, reason }),
  }
  const started = performance.now()
  const { rows, notes } =
    suite.placement === 'one-core'
      ? await onMeasureCore(async (cpu, away) => {
          const result = await suite.run(candidates, {
            ...ctx,
            ...(timed ? { interlude: () => away(timed) } : {}),
          })
          return { rows: result.rows, notes: [placementNote(cpu), ...result.notes] }
        })
      : await suite.run(candidates, { ...ctx, ...(timed ? { interlude: timed } : {}) })
  progress.note(`done in ${((performance.now() - started - awayMs) / 1000).toFixed(1)} s`)
  const record: SuiteRecord = {
    name: suite.name,
    description: suite.description,
    method: suite.method(budget),
    processRounds: suite.roundsAreProcesses === true,
    notes,
    failures,
    rows: decideRows(rows.map((row) => stamp(suite.name, row))),
  }
  options.stdout(renderTerminal(record, suite.view ?? {}, options.terminal))
  return record
}

/**
 * The suites on this Node, one after another. A suite that spreads its rounds runs the suites after it
 * in its interlude, once, halfway through its own rounds, and finishes last; the results keep the order
 * the suites were named in.
 */
async function runSuites(options: RunOptions, candidates: Candidates): Promise<SuiteRecord[]> {
  const records = new Map<number, SuiteRecord>()
  const runFrom = async (first: number): Promise<void> => {
    for (let index = first; index < options.suites.length; index++) {
      if (records.has(index)) continue
      const suite = options.suites[index] as AnySuite
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
export async function runBench(
  options: RunOptions,
): Promise<{ results: ResultsFile; files: readonly string[] }> {
  const loaded = await loadCandidates(options.root, { files: options.candidateFiles ?? [] })
  const candidates = filterCandidates(loaded.candidates, options.filter)
  const skipped = [...loaded.skipped]
  for (const s of skipped) options.progress('discovery').note(`skipped ${s.name}: ${s.reason}`)
  let environment = captureEnvironment(options.root, loaded.discovered, options.mode, options.toolVersions)
  const views = viewsOf(options.all)
  options.stdout(renderRule(options.terminal))
  const records: SuiteRecord[] = []
  if (options.runtimes) {
    const across = await runAcrossRuntimes({ ...options, runtimes: options.runtimes })
    skipped.push(...across.skipped)
    environment = { ...environment, runtimes: across.runtimes }
    for (const record of across.records)
      options.stdout(renderTerminal(record, views(record.name), options.terminal))
    records.push(...across.records)
  } else records.push(...(await runSuites(options, candidates)))
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
  options.stdout(renderAdvice(results, portableHashers(options.root), options.terminal))
  options.stdout(renderFindings(results, options.terminal))
  mkdirSync(options.outDir, { recursive: true })
  const stem = resultsStem(environment.date, environment.commit)
  const json = join(options.outDir, `${stem}.json`)
  writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`)
  const files = [
    json,
    ...(await writeReports(results, options.outDir, stem, {
      views,
      portable: portableHashers(options.root),
    })),
  ]
  return { results, files }
}
