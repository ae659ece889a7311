import { existsSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import type { ResultsFile, SuiteRecord } from '../results/results.js'
import type { Row } from '../types.js'
import { formatCell, formatNumber, groupRows, ratioCell, verdictWord } from './format.js'
import { escapeCell } from './markdown.js'
import { suiteCharts } from './suite-charts.js'

/**
 * A README's figures live between these markers, which name the results file they come from (relative
 * to the repository root) and, in a package's README, the candidate they are about:
 *   <!-- figures from benchmarks/results/<stem>.json [candidate <id>] -->
 *   …generated…
 *   <!-- /figures -->
 */
const BLOCK = /<!-- figures from (\S+)(?: candidate (\S+))? -->\n[\s\S]*?<!-- \/figures -->/g

export interface FigureBlock {
  /** The results file, relative to the repository root. */
  readonly file: string
  readonly candidate?: string
}

export function figureBlocks(readme: string): FigureBlock[] {
  return [...readme.matchAll(BLOCK)].map((m) => ({
    file: m[1] as string,
    ...(m[2] ? { candidate: m[2] } : {}),
  }))
}

/**
 * A Markdown table laid out as the repository's formatter lays it out (cells padded to the column,
 * numbers right-aligned), so a generated README passes the format check unchanged.
 */
export function alignedTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  right: (column: number) => boolean,
): string[] {
  const escaped = [headers, ...rows].map((r) => r.map(escapeCell))
  const widths = headers.map((_, i) => Math.max(3, ...escaped.map((r) => [...(r[i] ?? '')].length)))
  const pad = (cell: string, i: number) => {
    const fill = ' '.repeat((widths[i] ?? 0) - [...cell].length)
    return right(i) ? fill + cell : cell + fill
  }
  const line = (cells: readonly string[]) => `| ${cells.map(pad).join(' | ')} |`
  const rule = widths.map((w, i) => (right(i) ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w)))
  return [line(escaped[0] ?? []), `| ${rule.join(' | ')} |`, ...escaped.slice(1).map(line)]
}

/** Details worth a column in a README where a group has them: the finding beside the headline figure. */
const KEY_DETAILS = ['heap B/survivor', 'p99 delay ms', 'runs on', 'GET /health p99 ms']

/** Which groups of a suite the README shows; the rest are one link away in the run's report. */
function readmeGroups(suite: SuiteRecord): [string, Row[]][] {
  const groups = [...groupRows(suite.rows)]
  if (suite.name === 'hash') return groups.filter(([g]) => g.startsWith('defaults'))
  if (suite.name === 'concurrency') return []
  return groups
}

function groupTable(rows: readonly Row[]): string[] {
  const details = KEY_DETAILS.filter((k) => rows.some((r) => r.details[k] !== undefined))
  const baselines = [...new Set(rows.flatMap((r) => r.ratios.slice(0, 1).map((q) => q.baseline)))]
  const ratio = baselines.length === 1 ? `× ${baselines[0]} [95 %]` : '× own baseline [95 %]'
  const hasRatio = baselines.length > 0
  const headers = ['candidate', rows[0]?.unit ?? '', ...(hasRatio ? [ratio, 'verdict'] : []), ...details]
  const cells = rows.map((r) => [
    r.label,
    formatNumber(r.value),
    ...(hasRatio ? [ratioCell(r), verdictWord(r)] : []),
    ...details.map((k) => formatCell(r.details[k])),
  ])
  return alignedTable(headers, cells, (i) => i > 0 && headers[i] !== 'verdict' && headers[i] !== 'runs on')
}

function source(results: ResultsFile, file: string, toRoot: string): string {
  const env = results.environment
  const stem = file.replace(/\.json$/, '')
  const link = (path: string) => join(toRoot, path)
  const reports = [`[HTML report](${link(`${stem}.html`)})`, `[Markdown](${link(`${stem}.md`)})`]
  return [
    `From [\`${basename(file)}\`](${link(file)}) (${reports.join(', ')}): \`${results.run.command.join(' ')}\`, ${env.mode} mode,`,
    `commit ${env.commit.slice(0, 7)}${env.dirty ? ' (with uncommitted changes)' : ''}, ${env.date.slice(0, 16).replace('T', ' ')} UTC; ${env.cpu}, ${env.cores} cores,`,
    `${env.os} ${env.arch}, ${env.runtime}, load average ${env.loadAverage[0]} at start and ${results.run.loadAverageAtEnd[0]} at end, ${env.threadpool}.`,
  ].join('\n')
}

const READING = [
  'Ratios are the median of per-round ratios to a baseline measured in the same round (> 1 is better) with',
  'the 95 % interval across rounds; "same" means no difference (the interval covers 1 or the ratio is within',
  'the A/A noise floor), "undecided" fewer than 5 rounds or an interval wider than ±10 %, "suspect" a flagged',
  'row. How they are made:',
]

/**
 * The root README's section: where the figures come from, then per suite its chart (when the run's SVG
 * is at `root`) and its tables.
 */
export function summaryFigures(results: ResultsFile, file: string, toRoot: string, root: string): string {
  const out = [source(results, file, toRoot), '', ...READING]
  out.push(`[benchmarks/README.md](${join(toRoot, 'benchmarks/README.md')}#how-figures-are-made).`)
  const dir = dirname(file)
  const stem = basename(file, '.json')
  for (const suite of results.suites) {
    out.push('', `**${suite.name}**: ${suite.description}`)
    // The suite's finding: its first chart, except in http, where login (throughput beside the
    // GET /health p99) says more than the ids-in-framework ratios.
    const charts = suiteCharts(suite, results.environment.cores)
    const chart = charts.find((c) => c.name.startsWith('login')) ?? charts[0]
    const svg = chart ? join(dir, `${stem}-${suite.name}-${chart.name}.svg`) : undefined
    if (chart && svg && existsSync(join(root, svg))) out.push('', `![${chart.title}](${join(toRoot, svg)})`)
    for (const [group, rows] of readmeGroups(suite)) out.push('', `_${group}_`, '', ...groupTable(rows))
  }
  return out.join('\n')
}

/** A package README's block: that candidate's rows in every suite of the run. */
export function candidateFigures(
  results: ResultsFile,
  file: string,
  candidate: string,
  toRoot: string,
): string {
  const rows = results.suites.flatMap((s) => s.rows).filter((r) => r.candidate === candidate)
  const cells = rows.map((r) => {
    const q = r.ratios[0]
    return [
      `${r.suite} · ${r.group}`,
      `${formatNumber(r.value)} ${r.unit}`,
      q ? `× ${q.baseline}` : '',
      ratioCell(r),
      verdictWord(r),
      KEY_DETAILS.filter((k) => r.details[k] !== undefined)
        .map((k) => `${k} ${formatCell(r.details[k])}`)
        .join(', '),
    ]
  })
  const table = alignedTable(
    ['suite · group', 'figure', 'ratio to', '[95 %]', 'verdict', 'also'],
    cells,
    (i) => [1, 3].includes(i),
  )
  const summary = `[all candidates](${join(toRoot, 'README.md')}#latest-figures)`
  return [
    source(results, file, toRoot),
    '',
    rows.length > 0
      ? `This package's rows (${summary}):`
      : `This run has no row for \`${candidate}\` (${summary}).`,
    ...(rows.length > 0 ? ['', ...table] : []),
  ].join('\n')
}

/**
 * The README with every figures block regenerated from the results file it names. `from` moves blocks to
 * a newer run: those whose named file shares a suite with it (a default-suites run replaces the default
 * suites' blocks, an http run the http blocks), or whose named file is gone. `read` loads a results file
 * by its path relative to the repository root.
 */
export function regenerate(
  readme: string,
  readmePath: string,
  root: string,
  read: (file: string) => ResultsFile,
  from?: string,
): string {
  const toRoot = relative(dirname(readmePath), root)
  const replaces = (named: string) => {
    if (from === undefined) return false
    if (!existsSync(join(root, named))) return true
    const suites = new Set(read(from).run.suites)
    return read(named).run.suites.some((s) => suites.has(s))
  }
  return readme.replace(BLOCK, (_, named: string, candidate: string | undefined) => {
    const file = from !== undefined && replaces(named) ? from : named
    const results = read(file)
    const body = candidate
      ? candidateFigures(results, file, candidate, toRoot)
      : summaryFigures(results, file, toRoot, root)
    const open = `<!-- figures from ${file}${candidate ? ` candidate ${candidate}` : ''} -->`
    return `${open}\n\n${body}\n\n<!-- /figures -->`
  })
}
