import { mkdirSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { InvalidOptionError } from '@authlab/core'
import { assembleCandidates, filterCandidates } from './discover/candidates.js'
import { discoverPackages, loadPackages } from './discover/discovery.js'
import { renderMarkdown } from './report/markdown.js'
import { renderSvg } from './report/svg.js'
import { renderTerminal } from './report/terminal.js'
import { captureEnvironment } from './results/env.js'
import { RESULTS_FORMAT, type ResultsFile, type SuiteRecord } from './results/results.js'
import type { Budget, LoadedPackage, Progress, Suite } from './types.js'

export interface RunOptions {
  /** The workspace root whose packages are discovered. */
  readonly root: string
  readonly suites: readonly Suite[]
  readonly filter?: string
  readonly mode: 'quick' | 'full'
  readonly budget: Budget
  readonly maxRme: number
  readonly outDir: string
  /** Versions of the harness's own tools, recorded with the packages'. */
  readonly toolVersions: Readonly<Record<string, string>>
  readonly stdout: (text: string) => void
  readonly progress: (suite: string) => Progress
  readonly color: boolean
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

/** `2026-11-30T101502Z-783aff9`: sortable, unique per run, names the commit measured. */
export function resultsStem(date: string, commit: string): string {
  return `${date.slice(0, 19).replaceAll(':', '')}Z-${commit.slice(0, 7)}`
}

/**
 * Discovers, runs the suites one after another (never two timing workloads at once: on a
 * 2-core box a second one steals the first one's core), prints each suite's table, and writes the JSON, Markdown and one SVG per suite.
 */
export async function runBench(options: RunOptions): Promise<RunOutput> {
  const discovered = discoverPackages(options.root)
  const loaded = await loadPackages(discovered)
  const packages = loaded.flatMap((o): LoadedPackage[] => (o.ok ? [o.pkg] : []))
  const assembled = assembleCandidates(packages)
  const candidates = filterCandidates(assembled.candidates, options.filter)
  const skipped = [
    ...loaded.flatMap((o) => (o.ok ? [] : [{ name: o.name, reason: o.reason }])),
    ...assembled.skipped,
  ]
  for (const s of skipped) options.progress('discovery').note(`skipped ${s.name}: ${s.reason}`)
  const environment = captureEnvironment(options.root, discovered, options.mode, options.toolVersions)
  const cores = availableParallelism()
  const records: SuiteRecord[] = []
  for (const suite of options.suites) {
    const progress = options.progress(suite.name)
    const ctx = { budget: options.budget, progress, maxRme: options.maxRme, cores }
    const started = performance.now()
    const { rows, notes } = await suite.run(candidates, ctx)
    progress.note(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`)
    const stamped = rows.map((row) => ({ suite: suite.name, ...row }))
    const record = { name: suite.name, description: suite.description, notes, rows: stamped }
    records.push(record)
    options.stdout(renderTerminal(record, options.color))
  }
  const results: ResultsFile = { format: RESULTS_FORMAT, environment, suites: records, skipped }
  mkdirSync(options.outDir, { recursive: true })
  const stem = resultsStem(environment.date, environment.commit)
  const files: string[] = []
  const write = (name: string, text: string) => {
    const file = join(options.outDir, name)
    writeFileSync(file, text)
    files.push(file)
  }
  write(`${stem}.json`, `${JSON.stringify(results, null, 2)}\n`)
  const charted = new Set<string>()
  for (const record of records) {
    if (record.rows.length === 0) continue
    write(`${stem}-${record.name}.svg`, renderSvg(record))
    charted.add(record.name)
  }
  write(
    `${stem}.md`,
    renderMarkdown(results, (suite) => (charted.has(suite) ? `${stem}-${suite}.svg` : undefined)),
  )
  return { results, files }
}
