import { lstatSync, readdirSync } from 'node:fs'
import { basename, join, relative } from 'node:path'
import { entryKind } from '../files/regular.js'
import { type OldRun, readOldRun } from '../model/old-run.js'
import type { ResultsFile } from '../model/types.js'
import { type CompareOptions, compareResults, compareRule } from '../stats/compare.js'
import { readResults } from '../stats/decide.js'
import { CHANGE_COLUMNS, changeCells } from './compare.js'
import type { Cell, Table } from './document.js'
import { htmlText as escapeHtml, relativeHref } from './escape.js'
import { renderHtml, renderTable } from './html.js'

/** A results file under the directory: readable by `compare`, or why not; `skipped` when not read at all. */
export type IndexedRun =
  | { readonly file: string; readonly results: ResultsFile }
  | { readonly file: string; readonly reason: string; readonly old?: OldRun; readonly skipped?: true }

/**
 * Every `*.json` under `dir` (one level of subdirectories too, e.g. `results/stores/`), oldest first.
 * Only regular files are read: a FIFO would block the read forever, a symbolic link may point anywhere
 * (or nowhere), so lstat decides, nothing is followed, and any other entry is listed as skipped.
 */
export function findRuns(dir: string): IndexedRun[] {
  const files: string[] = []
  const skipped: IndexedRun[] = []
  const consider = (path: string) => {
    const stats = lstatSync(path)
    if (stats.isFile()) files.push(path)
    else
      skipped.push({ file: path, reason: `skipped: ${entryKind(stats)}, not a regular file`, skipped: true })
  }
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name)
    if (lstatSync(path).isDirectory()) {
      for (const inner of readdirSync(path).sort()) if (inner.endsWith('.json')) consider(join(path, inner))
    } else if (name.endsWith('.json')) consider(path)
  }
  const read = files.map((file): IndexedRun => {
    try {
      return { file, results: readResults(file) }
    } catch (error) {
      const old = readOldRun(file)
      return { file, reason: (error as Error).message.replace(`${file}: `, ''), ...(old ? { old } : {}) }
    }
  })
  // File names start with the run's date: their order is the runs' order.
  return [...read, ...skipped].sort((a, b) => basename(a.file).localeCompare(basename(b.file)))
}

const describe = (r: ResultsFile) =>
  `${r.environment.date.slice(0, 16).replace('T', ' ')} · ${r.environment.commit.slice(0, 7)}${r.environment.dirty ? '+dirty' : ''} · ${r.environment.mode} · ${r.run.suites.join(',')}`

/** The compare verdicts of two runs as a table, in the same cells as `authlab-bench compare`. */
function pairTable(before: ResultsFile, after: ResultsFile, options: CompareOptions): Table {
  const comparison = compareResults([before], [after], options)
  const regressions = comparison.changes.filter((c) => c.verdict === 'worse').length
  return {
    caption: `${comparison.changes.length} rows compared, ${regressions} regression(s)`,
    columns: CHANGE_COLUMNS,
    rows: [
      ...comparison.changes.map((c) => changeCells(c)),
      ...comparison.onlyBefore.map((k) => [k, 'only before', '', '', '']),
      ...comparison.onlyAfter.map((k) => [k, 'only after', '', '', '']),
    ],
    flagged: comparison.changes.map((c) => c.verdict === 'worse'),
  }
}

// Opens the chosen pair's precomputed verdicts; without script every pair stays listed below, closed.
const PICKER_SCRIPT = `
const before = document.getElementById('before'), after = document.getElementById('after')
const message = document.getElementById('pick-message')
function show() {
  const [i, j] = [Number(before.value), Number(after.value)].sort((x, y) => x - y)
  for (const d of document.querySelectorAll('details.pair')) d.open = false
  if (i === j) { message.textContent = 'Choose two different runs.'; return }
  const pair = document.getElementById('pair-' + i + '-' + j)
  if (!pair) { message.textContent = 'These two runs share no suite.'; return }
  message.textContent = ''
  pair.open = true
  pair.scrollIntoView()
}
before.addEventListener('change', show)
after.addEventListener('change', show)
`

/**
 * The index of a results directory: every run with its environment and a link to its report, and the
 * compare verdicts of every pair of runs, computed now by `compare`'s own code (the older run is
 * "before"). One self-contained file: the picker is a few lines of inline script over the precomputed
 * tables, and the page reads the same without it.
 */
export function renderIndexHtml(dir: string, runs: readonly IndexedRun[], options: CompareOptions): string {
  const current = runs.filter((r): r is Extract<IndexedRun, { results: ResultsFile }> => 'results' in r)
  const link = (file: string): Cell => {
    const stem = relative(dir, file).replace(/\.json$/, '')
    const exists = lstatSync(`${file.replace(/\.json$/, '')}.html`, { throwIfNoEntry: false })?.isFile()
    // A file name is data too: `javascript:x.json` must link to a file, not run a script (RFC 3986 §4.2).
    return exists
      ? { href: relativeHref(`${stem}.html`), text: 'HTML report' }
      : { href: relativeHref(`${stem}.md`), text: 'Markdown' }
  }
  const table: Table = {
    columns: ['run', 'date', 'commit', 'mode', 'suites', 'machine', 'load at start', 'report', 'compare'],
    rows: runs.map((run) => {
      const name = relative(dir, run.file)
      const env = 'results' in run ? run.results.environment : (run.old?.environment ?? {})
      const suites = 'results' in run ? run.results.run.suites : (run.old?.suites ?? [])
      return [
        name,
        env.date?.slice(0, 16).replace('T', ' ') ?? '',
        env.commit ? `${env.commit.slice(0, 7)}${env.dirty ? '+dirty' : ''}` : '',
        env.mode ?? '',
        suites.join(', '),
        env.cpu ? `${env.cpu}, ${env.cores} cores, ${env.runtime}` : '',
        env.loadAverage?.join(' / ') ?? '',
        'skipped' in run ? '' : link(run.file),
        'results' in run ? 'yes' : run.reason,
      ]
    }),
  }
  const pairs: string[] = []
  for (let i = 0; i < current.length; i++) {
    for (let j = i + 1; j < current.length; j++) {
      const [a, b] = [current[i] as (typeof current)[number], current[j] as (typeof current)[number]]
      if (!a.results.run.suites.some((s) => b.results.run.suites.includes(s))) continue
      const summary = `${describe(a.results)} → ${describe(b.results)}`
      pairs.push(
        `<details class="pair" id="pair-${i}-${j}"><summary>${escapeHtml(summary)}</summary>${renderTable(pairTable(a.results, b.results, options))}</details>`,
      )
    }
  }
  const options_ = (selected: number) =>
    current
      .map(
        (r, i) =>
          `<option value="${i}"${i === selected ? ' selected' : ''}>${escapeHtml(describe(r.results))}</option>`,
      )
      .join('')
  const picker =
    current.length >= 2
      ? `<p><label>before<select id="before">${options_(current.length - 2)}</select></label><label>after<select id="after">${options_(current.length - 1)}</select></label><span id="pick-message"></span></p>${pairs.join('')}`
      : `<p>${current.length} run(s) in the current format: two are needed to compare.</p>`
  const skippedCount = runs.filter((run) => 'skipped' in run).length
  return renderHtml({
    title: `authlab benchmarks — ${runs.length} results files in ${dir.split('/').slice(-2).join('/')}`,
    environment: [
      [
        'runs',
        `${current.length} comparable, ${runs.length - current.length - skippedCount} in an older format, ${skippedCount} skipped (not regular files)`,
      ],
      ['compare rule', compareRule(options)],
    ],
    sections: [
      {
        id: 'runs',
        heading: 'Runs',
        intro:
          'Each run’s environment and its report. A file in an older format is listed with the reason compare refuses it; an entry that is not a regular file (a symbolic link, a FIFO) is skipped unread.',
        tables: [table],
      },
      {
        id: 'compare',
        heading: 'Compare two runs',
        intro:
          'Choose two runs: the older one is “before”. Each row’s first ratio is compared round by round, exactly as `authlab-bench compare` does; every pair is listed below.',
        markup: picker,
      },
    ],
    ...(current.length >= 2 ? { script: PICKER_SCRIPT } : {}),
  })
}
