import { existsSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import { againstOf, matches, type RowKey } from '../keys.js'
import { rejudge } from '../measure/verdict.js'
import type { ResultsFile } from '../results/results.js'
import type { Ratio, Row } from '../types.js'
import { adviceFigures, costsFigures } from './advice-readme.js'
import { BEST_ID, CLAIMS, type ClaimPart, FRAMEWORK_DEFAULTS } from './claims.js'
import { chartFileName, markdownCode, markdownText } from './escape.js'
import { groupRows, inSummary } from './format.js'
import { type HeldRow, heldRatio, heldRows, heldValue } from './held.js'
import { runtimesFigures } from './runtimes-figures.js'
import { suiteCharts } from './suite-charts.js'

/**
 * A README's figures live between markers naming the results files (from the repository root, oldest
 * first) and, in a package's README, the candidate:
 *   <!-- figures from benchmarks/results/<stem>.json[,<stem2>.json,…] [candidate <id>] -->
 *   …generated…
 *   <!-- /figures -->
 * Several files are consecutive runs: a ratio is quoted only where they agree (see `heldRatio`).
 */
const BLOCK =
  /<!-- figures from (\S+)(?: candidate (\S+)| (findings|defaults|advice|costs|runtimes))? -->\n[\s\S]*?<!-- \/figures -->/g

type BlockKind = 'findings' | 'defaults' | 'advice' | 'costs' | 'runtimes'

export interface FigureBlock {
  readonly files: readonly string[]
  readonly candidate?: string
  readonly kind?: BlockKind
}

export function figureBlocks(readme: string): FigureBlock[] {
  return [...readme.matchAll(BLOCK)].map((m) => ({
    files: (m[1] as string).split(','),
    ...(m[2] ? { candidate: m[2] } : {}),
    ...(m[3] ? { kind: m[3] as BlockKind } : {}),
  }))
}

/** A Markdown table laid out as the repository's formatter lays it out, so a README passes its format check. */
export function alignedTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  right: (column: number) => boolean,
): string[] {
  const escaped = [headers, ...rows].map((r) => r.map(markdownText))
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

/** The interval a ratio column shows: one run's 95 % interval, or the range of several runs. */
const intervalOf = (runs: number) => (runs === 1 ? '[95 %]' : `(range of ${runs} runs)`)

function groupTable(rows: readonly HeldRow[]): string[] {
  const details = KEY_DETAILS.filter((k) => rows.some(({ row }) => row.details[k] !== undefined))
  const baselines = [...new Set(rows.flatMap(({ row }) => row.ratios.slice(0, 1).map((q) => q.baseline)))]
  const how = intervalOf(rows[0]?.of ?? 1)
  const ratio = baselines.length === 1 ? `× ${baselines[0]} ${how}` : `× own baseline ${how}`
  const hasRatio = baselines.length > 0
  const headers = ['candidate', rows[0]?.row.unit ?? '', ...(hasRatio ? [ratio, 'verdict'] : []), ...details]
  const cells = rows.map((held) => {
    const { ratio: cell, verdict } = heldRatio(held)
    return [
      held.row.label,
      heldValue(held, (r) => r.value),
      ...(hasRatio ? [cell, verdict] : []),
      ...details.map((k) => heldValue(held, (r) => r.details[k])),
    ]
  })
  return alignedTable(headers, cells, (i) => i > 0 && headers[i] !== 'verdict' && headers[i] !== 'runs on')
}

export function source(runs: readonly ResultsFile[], files: readonly string[], toRoot: string): string {
  const link = (path: string) => join(toRoot, path)
  // The HTML report is not committed (it inlines every chart again); `authlab-bench report` rebuilds it.
  const named = files.map(
    (file) => `[\`${basename(file)}\`](${link(file)}) ([Markdown](${link(file.replace(/\.json$/, '.md'))}))`,
  )
  const latest = runs.at(-1) as ResultsFile
  const env = latest.environment
  const commits = markdownText([...new Set(runs.map((r) => r.environment.commit.slice(0, 7)))].join(', '))
  const dirty = runs.some((r) => r.environment.dirty) ? ' (with uncommitted changes)' : ''
  const when = markdownText(runs.map((r) => r.environment.date.slice(0, 16).replace('T', ' ')).join(', '))
  const loads = runs.map((r) => `${r.environment.loadAverage[0]}→${r.run.loadAverageAtEnd[0]}`).join(', ')
  const each = runs.length === 1 ? '' : ` (each run, start→end)`
  return [
    `${runs.length === 1 ? 'From' : `The median of ${runs.length} consecutive runs,`} ${named.join(', ')}: ${markdownCode(latest.run.command.join(' '))}, ${markdownText(env.mode)} mode,`,
    `commit ${commits}${dirty}, ${when} UTC; ${markdownText(env.cpu)}, ${env.cores} cores,`,
    `${markdownText(`${env.os} ${env.arch}, ${env.runtime}`)}, load average ${loads}${each}, ${markdownText(env.threadpool)}.`,
  ].join('\n')
}

// The rule itself is said once, in the section the block links to.
const READING = '"suspect": a flagged row.'

/** What a block over several runs adds: a ratio is quoted only where the runs agree. */
const READING_RUNS = (runs: number) =>
  `Each figure is the median of the ${runs} runs; a ratio is the latest run's, with its interval; the verdict is the one all ${runs} runs reached, else "undecided in k of ${runs} runs" or "varies".`

/** The root README's section: the source, then per suite the latest run's chart (when at `root`) and tables. */
export function summaryFigures(
  runs: readonly ResultsFile[],
  files: readonly string[],
  toRoot: string,
  root: string,
): string {
  const latest = runs.at(-1) as ResultsFile
  const file = files.at(-1) as string
  const out = [
    source(runs, files, toRoot),
    '',
    READING,
    ...(runs.length === 1 ? [] : [READING_RUNS(runs.length)]),
    `How they are made: [benchmarks/README.md](${join(toRoot, 'benchmarks/README.md')}#how-figures-are-made).`,
  ]
  const held = new Map(heldRows(runs).map((h) => [h.row, h]))
  const dir = dirname(file)
  const stem = basename(file, '.json')
  for (const suite of latest.suites) {
    out.push('', `**${markdownText(suite.name)}**: ${markdownText(suite.description)}`)
    // The suite's finding: its first chart, except in http, where login (throughput beside the
    // GET /health p99) says more than the ids-in-framework ratios.
    const charts = suiteCharts(suite, latest.environment.cores)
    const chart = charts.find((c) => c.name.startsWith('login')) ?? charts[0]
    const svg = chart && join(dir, chartFileName(stem, suite.name, chart.name))
    if (chart && svg && existsSync(join(root, svg)))
      out.push('', `![${markdownText(chart.title)}](${join(toRoot, svg)})`)
    // The groups a summary shows; the rest are one link away in the run's report.
    for (const [group, rows] of groupRows(suite.rows)) {
      if (rows.every(inSummary))
        out.push('', `_${markdownText(group)}_`, '', ...groupTable(rows.map((r) => held.get(r) as HeldRow)))
    }
  }
  return out.join('\n')
}

/** A package README's block: that candidate's rows in every suite of the runs. */
export function candidateFigures(
  runs: readonly ResultsFile[],
  files: readonly string[],
  candidate: string,
  toRoot: string,
): string {
  const rows = heldRows(runs).filter((h) => h.row.candidate === candidate)
  const cells = rows.map((held) => {
    const { row } = held
    const q = row.ratios[0]
    const { ratio, verdict } = heldRatio(held)
    return [
      `${row.suite} · ${row.group}`,
      `${heldValue(held, (r) => r.value)} ${row.unit}`,
      q ? `× ${q.baseline}` : '',
      ratio,
      verdict,
      KEY_DETAILS.filter((k) => row.details[k] !== undefined)
        .map((k) => `${k} ${heldValue(held, (r) => r.details[k])}`)
        .join(', '),
    ]
  })
  const headers = ['suite · group', 'figure', 'ratio to', intervalOf(runs.length), 'verdict', 'also']
  const table = alignedTable(headers, cells, (i) => i === 1 || i === 3)
  const summary = `[all candidates](${join(toRoot, 'benchmarks', 'README.md')}#latest-figures)`
  return [
    source(runs, files, toRoot),
    '',
    rows.length > 0
      ? `\`${candidate}\`'s rows (${summary}):`
      : `This run has no row for \`${candidate}\` (${summary}).`,
    ...(rows.length > 0 ? ['', ...table] : []),
  ].join('\n')
}

/**
 * The row with the ratio a claim part asks for moved first, so the held verdict is that ratio's; read
 * against the part's ceiling when it names one, and at the part's own margin when it has one.
 */
function focused(row: Row, part: ClaimPart): Row | undefined {
  const found = part.ratio ? row.ratios.find((q) => part.ratio?.(q)) : row.ratios[0]
  const ceiling = part.ceiling === undefined ? 1 : row.details[part.ceiling]
  if (!found || typeof ceiling !== 'number' || !(ceiling > 0)) return undefined
  const scaled =
    ceiling === 1 ? found : { ...found, baseline: `${ceiling}`, rounds: found.rounds.map((r) => r / ceiling) }
  const chosen =
    scaled === found && part.margin === undefined ? found : rejudge({ ...scaled, margin: part.margin })
  return { ...row, flags: row.flags.filter((f) => f !== 'baseline'), ratios: [chosen] }
}

/** A held row seen through `view` (one of its ratios) as "ratio verdict"; undefined where it has none. */
function heldVia(h: HeldRow | undefined, view: (row: Row) => Row | undefined): string | undefined {
  const row = h && view(h.row)
  if (!h || !row) return undefined
  const { ratio, verdict } = heldRatio({ row, runs: h.runs.flatMap((r) => view(r) ?? []), of: h.of })
  return `${ratio} ${verdict}`
}

/** A claim as the runs answer it: each part's magnitude, interval and verdict, in the findings' words. */
export interface Finding {
  readonly title: string
  readonly source: string
  readonly parts: readonly string[]
}

/** The claims (src/report/claims.ts) the runs answer, each with the parts they have rows for. */
export function findings(runs: readonly ResultsFile[]): Finding[] {
  const latest = runs.at(-1)
  if (!latest) return []
  const rows = latest.suites.flatMap((s) => s.rows)
  const held = heldRows(runs)
  return CLAIMS.flatMap((claim) => {
    const parts = claim.parts(rows, latest.environment.cores).flatMap((part) => {
      const text = heldVia(
        held.find((x) => part.pick(x.row)),
        (row) => focused(row, part),
      )
      return text ? [`${part.label} ${text}`] : []
    })
    return parts.length === 0 ? [] : [{ title: claim.title, source: claim.source, parts }]
  })
}

/** One line per claim: each part's magnitude, interval and verdict over the runs. */
export function findingsFigures(
  runs: readonly ResultsFile[],
  files: readonly string[],
  toRoot: string,
): string {
  const lines = findings(runs).map((f) => `- **${f.title}** (${f.source}): ${f.parts.join('; ')}.`)
  return [source(runs, files, toRoot), '', ...lines].join('\n')
}

/** A ratio read the other way round: b ÷ a from a ÷ b, its interval and verdict turned with it. */
function inverted(q: Ratio, baseline: string): Ratio {
  const flip = { better: 'worse', worse: 'better', same: 'same', undecided: 'undecided' } as const
  return {
    ...q,
    baseline,
    value: 1 / q.value,
    low: 1 / q.high,
    high: 1 / q.low,
    rounds: q.rounds.map((r) => 1 / r),
    verdict: flip[q.verdict],
  }
}

/**
 * What each framework does by default and what it costs: its session-ID generator against authlab's
 * fastest (IDs per CPU-second), and its password hasher against authlab's native implementation at the
 * same parameters, with how much of the hashing time its event loop stayed free. Held over the runs.
 */
export function defaultsFigures(
  runs: readonly ResultsFile[],
  files: readonly string[],
  toRoot: string,
): string {
  const held = heldRows(runs)
  const find = (want: Partial<RowKey>) => held.find((h) => matches(h.row, want))
  const cell = (h: HeldRow | undefined, pick: (row: Row) => Ratio | undefined) =>
    heldVia(h, (row) => {
      const q = pick(row)
      return q ? { ...row, flags: [], ratios: [q] } : undefined
    }) ?? 'not measured'
  const ids = { suite: 'ids', operation: 'generate', runtime: undefined }
  const best = find({ ...ids, candidate: BEST_ID })
  const measured = FRAMEWORK_DEFAULTS.filter((f) => !f.needs || find({ ...ids, candidate: f.id }))
  const cells = measured.map((f) => {
    const own = find({ ...ids, candidate: f.id })
    const idCell = cell(best, (row) => {
      const q = row.ratios.find((r) => againstOf(r) === f.id)
      return q && inverted(q, best?.row.label ?? BEST_ID)
    })
    const hash =
      f.hasher &&
      find({ suite: 'hash', setting: f.hasher.setting, operation: 'hash', candidate: f.hasher.candidate })
    const lag = f.hasher && find({ suite: 'lag', candidate: f.hasher.candidate })
    return [
      f.framework,
      own?.row.label ?? f.id,
      idCell,
      f.hasher ? (hash?.row.label ?? f.hasher.candidate) : 'none',
      f.hasher ? cell(hash, (row) => row.ratios[0]) : '',
      f.hasher ? cell(lag, (row) => row.ratios[0]) : '',
    ]
  })
  const table = alignedTable(
    [
      'framework',
      'session ID by default',
      `IDs/s × ${best?.row.label ?? BEST_ID}`,
      'password hash by default',
      "CPU × authlab's native, same parameters",
      'event loop left free × native',
    ],
    cells,
    () => false,
  )
  return [source(runs, files, toRoot), '', ...table].join('\n')
}

/**
 * The README with every figures block regenerated from the results files it names. `from` moves blocks
 * to newer runs: those whose first named file shares a suite and a runtime major version with `from`'s (a
 * default-suites run replaces the default suites' blocks, an http run the http blocks, and a Node 20 run
 * leaves a Node 24 block alone), or whose named files are gone. `read` loads a results file by its path
 * relative to the repository root.
 */
export function regenerate(
  readme: string,
  readmePath: string,
  root: string,
  read: (file: string) => ResultsFile,
  from?: readonly string[],
): string {
  const toRoot = relative(dirname(readmePath), root)
  const replaces = (named: readonly string[]) => {
    if (from === undefined || from.length === 0) return false
    if (!named.every((file) => existsSync(join(root, file)))) return true
    const [newer, older] = [read(from[0] as string), read(named[0] as string)]
    const major = (run: ResultsFile) => run.environment.runtime.replace(/^(\S+ v?\d+).*$/, '$1')
    if (major(newer) !== major(older)) return false
    const suites = new Set(newer.run.suites)
    return older.run.suites.some((s) => suites.has(s))
  }
  const byKind = {
    findings: findingsFigures,
    defaults: defaultsFigures,
    advice: adviceFigures,
    costs: costsFigures,
    runtimes: runtimesFigures,
  }
  return readme.replace(BLOCK, (_, list: string, candidate: string | undefined, kind?: BlockKind) => {
    const named = list.split(',')
    const files = from !== undefined && replaces(named) ? from : named
    const runs = files.map(read)
    const body = kind
      ? byKind[kind](runs, files, toRoot)
      : candidate
        ? candidateFigures(runs, files, candidate, toRoot)
        : summaryFigures(runs, files, toRoot, root)
    const tail = kind ? ` ${kind}` : candidate ? ` candidate ${candidate}` : ''
    const open = `<!-- figures from ${files.join(',')}${tail} -->`
    return `${open}\n\n${body}\n\n<!-- /figures -->`
  })
}
