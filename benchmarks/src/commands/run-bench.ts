import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { captureEnvironment, loadAverage } from '@authlab/workspace'
import { filterCandidates, loadCandidates } from '../discover/candidates.js'
import { runtimeClaims } from '../discover/runtime-claims.js'
import { runSuites, type SuitesRun, viewsOf } from '../harness/run.js'
import type { AnySuite } from '../harness/suite.js'
import { RESULTS_FORMAT, type ResultsFile, type SuiteRecord } from '../model/types.js'
import { writeReports } from '../report/files.js'
import { renderFindings, renderRule, renderTerminal } from '../report/terminal.js'
import { renderAdvice } from '../report/terminal-advice.js'
import { runAcrossRuntimes } from '../runtimes/across.js'

export interface RunOptions extends SuitesRun {
  /** The workspace root whose packages are discovered. */
  readonly root: string
  /** Every suite (the views of the reports), besides the ones this run runs. */
  readonly all: readonly AnySuite[]
  /** `--runtime`: run the portable suites inside each of these runtimes instead of this Node only. */
  readonly runtimes?: readonly string[]
  readonly filter?: string
  /** User modules given with `--candidate`, benchmarked beside the packages. */
  readonly candidateFiles?: readonly string[]
  readonly outDir: string
  /** The command line as typed, recorded in the results. */
  readonly command: readonly string[]
  /** Versions of the harness's own tools, recorded with the packages'. */
  readonly toolVersions: Readonly<Record<string, string>>
}

/** `2026-11-30T101502Z-783aff9`: sortable, unique per run, names the commit measured. */
export function resultsStem(date: string, commit: string): string {
  return `${date.slice(0, 19).replaceAll(':', '')}Z-${commit.slice(0, 7)}`
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
  options.stdout(renderAdvice(results, runtimeClaims(options.root), options.terminal))
  options.stdout(renderFindings(results, options.terminal))
  mkdirSync(options.outDir, { recursive: true })
  const stem = resultsStem(environment.date, environment.commit)
  const json = join(options.outDir, `${stem}.json`)
  writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`)
  const files = [
    json,
    ...(await writeReports(results, options.outDir, stem, {
      views,
      claims: runtimeClaims(options.root),
    })),
  ]
  return { results, files }
}
