/**
 * A run's report as the document model: the environment, how to read it, the advice, then per suite
 * its charts, tables (with each row's rounds drawn beside it in HTML), flags, A/A controls, failed
 * rounds and notes; then what was skipped and the package versions.
 */

import type { RuntimeClaim } from '../discover/runtime-claims.js'
import {
  hasFlag,
  isWarned,
  type Ratio,
  type ResultsFile,
  type Row,
  type SuiteRecord,
} from '../model/types.js'
import type { Views } from '../model/view.js'
import { failedControl } from '../stats/decide.js'
import { medianInterval } from '../stats/stats.js'
import { adviceSection } from './advice-report.js'
import { MAX_BARS, renderSvg, type Strip, stripSpec } from './charts.js'
import { type Cell, type Chart, type Document, environmentOf, type Section, type Table } from './document.js'
import { firstBaselines, formatNumber, groupRows, tableOf } from './format.js'
import { FLAG_MEANINGS, flagText, formatRatio, VERDICT_RULE, withheldText } from './words.js'

/** How to read every page: said once at the top, in the words the tables use. */
export const READING_GUIDE = [
  `${VERDICT_RULE} The rounds column draws each round as a dot, the interval as a blue line and the median as an orange tick, each row on its own scale; a dashed line marks 1 when it falls inside.`,
  'Rows shaded and marked ⚠ carry a flag saying not to read them as fact; each flag is explained under its table.',
]

export interface RunDocumentOptions {
  readonly views: Views
  /** Where each strategy package says it runs (src/discover/runtime-claims.ts): the costs table's reasons. */
  readonly claims: ReadonlyMap<string, RuntimeClaim>
  /** Each suite's charts, drawn once for every format. */
  readonly charts: (suite: string) => readonly Chart[]
  /** Draw each row's rounds beside it (the HTML report). */
  readonly strips: boolean
}

/** The figures a row's strip draws: its first ratio's rounds, else its own per-round values. */
function stripOf(row: Row): Omit<Strip, 'domain'> | undefined {
  const q = row.ratios[0]
  if (q && q.rounds.length > 0)
    return { rounds: q.rounds, value: q.value, low: q.low, high: q.high, reference: 1 }
  const rounds = row.rounds ?? []
  return rounds.length === 0 ? undefined : { rounds, value: row.value, ...medianInterval(rounds) }
}

/**
 * One strip per row (as many as a chart has bars), each on its own scale: the rounds' spread is the
 * point, and a group's figures can span 100×. The dashed line at 1 is drawn when it falls inside.
 */
async function stripCells(rows: readonly Row[]): Promise<Cell[]> {
  const cells: Cell[] = []
  for (const strip of rows.slice(0, MAX_BARS).map(stripOf)) {
    if (!strip) {
      cells.push('')
      continue
    }
    const all = [...strip.rounds, strip.low, strip.high]
    const [min, max] = [Math.min(...all), Math.max(...all)]
    const pad = (max - min) * 0.1 || Math.abs(max) * 0.05 || 1
    const domain = [min - pad, max + pad] as const
    const inside =
      strip.reference !== undefined && strip.reference >= domain[0] && strip.reference <= domain[1]
    const { reference: _, ...rest } = strip
    cells.push({
      svg: await renderSvg(stripSpec({ ...rest, ...(inside ? { reference: strip.reference } : {}), domain })),
    })
  }
  return cells
}

function flagNotes(rows: readonly Row[]): string[] {
  const texts = new Map(rows.flatMap((r) => r.flags).map((f) => [flagText(f), f]))
  return [...texts].map(([text, flag]) => {
    const meaning = FLAG_MEANINGS[flag.kind]
    return `${isWarned({ flags: [flag] }) ? '⚠ ' : ''}${text}${meaning ? `: ${meaning}` : ''}`
  })
}

/** Every figure of a group: the table every reporter uses, with the rounds drawn beside the figure. */
async function groupTable(group: string, rows: readonly Row[], strips: boolean): Promise<Table> {
  const { headers, cells, flagged } = tableOf(rows)
  const drawn = strips ? await stripCells(rows) : []
  const insert = <T>(list: readonly T[], item: T) =>
    drawn.length > 0 ? [...list.slice(0, 2), item, ...list.slice(2)] : [...list]
  return {
    caption: group,
    columns: insert(headers, 'rounds'),
    rows: cells.map((row, i) => insert<Cell>(row, drawn[i] ?? '')),
    flagged,
    notes: [
      ...(strips && rows.length > MAX_BARS
        ? [`Rounds drawn for the first ${MAX_BARS} of ${rows.length} rows.`]
        : []),
      ...flagNotes(rows),
    ],
  }
}

/**
 * The same candidates measured in several runtimes: one row per candidate, one column per runtime with
 * its figure and its first ratio, so a reader compares runtimes across a row.
 */
function runtimeTable(group: string, rows: readonly Row[]): Table {
  const runtimes = [...new Set(rows.map((r) => r.runtime ?? 'node'))]
  const candidates = [...new Set(rows.map((r) => r.candidate))]
  // One baseline for every first ratio is named once, in the caption; several are named in each cell.
  const baselines = firstBaselines(rows)
  const baseline = baselines.length === 1 ? baselines[0] : undefined
  const ratioText = (q: Ratio) => (baseline ? formatRatio(q) : `${formatRatio(q)} vs ${q.baseline}`)
  const body = candidates.map((candidate) => {
    const mine = rows.filter((r) => r.candidate === candidate)
    const cells = runtimes.map((runtime) => {
      const row = mine.find((r) => (r.runtime ?? 'node') === runtime)
      const q = row?.ratios[0]
      return row ? `${formatNumber(row.value)}${q ? ` · ${ratioText(q)}` : ''}` : '–'
    })
    return { row: mine[0] as Row, cells, flags: mine.flatMap((r) => r.flags) }
  })
  return {
    caption: `${group} — per runtime: ${rows[0]?.unit ?? ''}${baseline ? ` · × vs ${baseline}` : ''}`,
    columns: ['candidate', ...runtimes, 'flags'],
    rows: body.map(({ row, cells, flags }) => [
      row.label,
      ...cells,
      [...new Set(flags.map(flagText))].join('; '),
    ]),
    flagged: body.map(({ flags }) => isWarned({ flags })),
    notes: flagNotes(rows),
  }
}

/** The A/A controls of a suite, in words: identical code measured twice, which must read same. */
function controlNotes(suite: SuiteRecord): string[] {
  const failed = failedControl(suite.rows)
  return [
    ...suite.rows.flatMap((row) => {
      const q = row.ratios[0]
      if (!hasFlag(row, 'control') || !q || q.rounds.length === 0) return []
      return [`A/A control (${row.group}): ${row.label} read ${formatRatio(q)} of ${q.baseline}.`]
    }),
    ...(failed ? [`⚠ ${withheldText(failed)}`] : []),
  ]
}

/** A round that failed, named with its candidate: a figure from fewer rounds than the others. */
export const failureNotes = (suite: SuiteRecord) =>
  suite.failures.map((f) => `⚠ ${f.candidate}: a round failed (${f.reason})`)

async function suiteSection(suite: SuiteRecord, options: RunDocumentOptions): Promise<Section> {
  const tables: Table[] = []
  for (const [group, rows] of groupRows(suite.rows))
    tables.push(
      rows.some((r) => r.runtime !== undefined)
        ? runtimeTable(group, rows)
        : await groupTable(group, rows, options.strips),
    )
  return {
    id: suite.name,
    heading: suite.name,
    intro: suite.description,
    charts: options.charts(suite.name),
    tables,
    notes: [
      ...(suite.method ? [`Method: ${suite.method}`] : []),
      ...controlNotes(suite),
      ...failureNotes(suite),
      ...suite.notes,
    ],
  }
}

/** A run's report: environment, how to read it, the advice, then per suite its charts, tables and notes. */
export async function runDocument(results: ResultsFile, options: RunDocumentOptions): Promise<Document> {
  const env = results.environment
  const advice = await adviceSection(results, options.claims)
  const sections: Section[] = advice ? [advice] : []
  for (const suite of results.suites) sections.push(await suiteSection(suite, options))
  if (results.skipped.length > 0)
    sections.push({
      id: 'skipped',
      heading: 'Skipped',
      notes: results.skipped.map((s) => `${s.name}: ${s.reason}`),
    })
  sections.push({
    id: 'packages',
    heading: 'Package versions',
    tables: [{ columns: ['package', 'version'], rows: Object.entries(env.packages) }],
  })
  return {
    title: `authlab benchmarks — ${env.date.slice(0, 16).replace('T', ' ')} UTC, ${env.commit.slice(0, 7)} (${env.mode} run)`,
    environment: environmentOf(results),
    legend: READING_GUIDE,
    sections,
  }
}
