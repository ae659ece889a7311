import { medianInterval } from '../measure/stats.js'
import { CONTROL_FLAG } from '../measure/verdict.js'
import type { ResultsFile, SuiteRecord } from '../results/results.js'
import type { Row } from '../types.js'
import { adviceSection } from './advice-report.js'
import { MAX_BARS, renderSvg, type Strip, stripSpec } from './charts.js'
import { formatNumber, formatRatio, groupRows, isWarning, runtimeOf, tableOf } from './format.js'
import { type HtmlCell, type HtmlSection, type HtmlTable, renderHtml } from './html.js'
import { suiteCharts } from './suite-charts.js'
import { VERDICT_RULE } from './words.js'

/** What each flag means, said where the flag is shown (matched by prefix). */
const FLAG_MEANINGS: ReadonlyArray<readonly [string, string]> = [
  ['baseline', 'the figure the other rows are divided by, measured in the same rounds.'],
  [
    CONTROL_FLAG,
    "the baseline measured again as a separate candidate, judged by the same rule: it must read same. If it reads better or worse, the harness is wrong, not the code, and the suite's other verdicts are withheld.",
  ],
  [
    'ceiling',
    'a bench-only INSECURE reference: the cheapest possible way to produce the same output, a real upper bound. Never use it.',
  ],
  [
    'measurement error',
    'a ratio to a physical limit cannot exceed that limit (1 for a ceiling or a cores ÷ hash-time limit, min(K, cores) for a speed-up); this row’s whole interval lies above it, so the harness mismeasured and the row is not a finding.',
  ],
  ['noisy', 'the spread across rounds is too wide for the figure to be read as fact.'],
  ['no clean round', 'every round failed or was left out: there is no figure, the 0 is a placeholder.'],
  [
    'same measurement as defaults',
    'this setting is the hasher’s default, so its figures are the ones of the defaults group.',
  ],
  ['only ', 'too few operations for a spread: one run, no interval.'],
]

/** How to read every page: said once at the top, in the words the tables use. */
export const READING_GUIDE = [
  `${VERDICT_RULE} The rounds column draws each round as a dot, the interval as a blue line and the median as an orange tick, each row on its own scale; a dashed line marks 1 when it falls inside.`,
  'Rows shaded and marked ⚠ carry a flag saying not to read them as fact; each flag is explained under its table.',
]

/** The figures a row's strip draws: its first ratio's rounds, else its own per-round values. */
function stripOf(row: Row): Omit<Strip, 'domain'> | undefined {
  const q = row.ratios[0]
  if (q && q.rounds.length > 0)
    return { rounds: q.rounds, value: q.value, low: q.low, high: q.high, reference: 1 }
  const rounds = row.rounds ?? []
  if (rounds.length === 0) return undefined
  return { rounds, value: row.value, ...medianInterval(rounds) }
}

/**
 * One strip per row, each on its own scale (the rounds' spread is the point, and a group's figures can
 * span 100×, which would squash every strip into a dot); the numbers beside it give the scale. The
 * dashed line at 1 is drawn when it falls inside.
 */
async function stripCells(rows: readonly Row[]): Promise<HtmlCell[]> {
  const cells: HtmlCell[] = []
  // As many strips as a chart has bars: past that the table's numbers say it, and each strip is a render.
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
  return [...new Set(rows.flatMap((r) => r.flags))].map((flag) => {
    const meaning = FLAG_MEANINGS.find(([prefix]) => flag.startsWith(prefix))?.[1]
    return `${isWarning(flag) ? '⚠ ' : ''}${flag}${meaning ? `: ${meaning}` : ''}`
  })
}

/** Every figure of a group: the text table every reporter uses, with the rounds drawn beside the figure. */
async function groupTable(group: string, rows: readonly Row[]): Promise<HtmlTable> {
  const { headers, cells, flagged } = tableOf(rows)
  const strips = await stripCells(rows)
  const hasStrips = strips.some((s) => s !== '')
  const insert = <T>(list: readonly T[], item: T) =>
    hasStrips ? [...list.slice(0, 2), item, ...list.slice(2)] : [...list]
  return {
    caption: group,
    columns: insert(headers, 'rounds'),
    rows: cells.map((row, i) => insert<HtmlCell>(row, strips[i] ?? '')),
    flagged,
    notes: [
      ...(rows.length > MAX_BARS ? [`Rounds drawn for the first ${MAX_BARS} of ${rows.length} rows.`] : []),
      ...flagNotes(rows),
    ],
  }
}

/**
 * The same candidates measured in several runtimes: one row per candidate, one column per runtime with
 * its figure and its first ratio, so a reader compares runtimes across a row.
 */
function runtimeTable(group: string, rows: readonly Row[]): HtmlTable {
  const runtimes = [...new Set(rows.map((r) => runtimeOf(r) ?? 'node'))]
  const candidates = [...new Set(rows.map((r) => r.candidate))]
  const unit = rows[0]?.unit ?? ''
  const baseline = rows.find((r) => r.ratios[0])?.ratios[0]?.baseline
  const body = candidates.map((candidate) => {
    const mine = rows.filter((r) => r.candidate === candidate)
    const cells = runtimes.map((runtime) => {
      const row = mine.find((r) => (runtimeOf(r) ?? 'node') === runtime)
      if (!row) return '–'
      const q = row.ratios[0]
      return `${formatNumber(row.value)}${q ? ` · ${formatRatio(q)}` : ''}`
    })
    return { row: mine[0] as Row, cells, flags: [...new Set(mine.flatMap((r) => r.flags))] }
  })
  return {
    caption: `${group} — per runtime: ${unit}${baseline ? ` · × vs ${baseline}` : ''}`,
    columns: ['candidate', ...runtimes, 'flags'],
    rows: body.map(({ row, cells, flags }) => [row.label, ...cells, flags.join('; ')]),
    flagged: body.map(({ flags }) => flags.some(isWarning)),
    notes: flagNotes(rows),
  }
}

/** The A/A controls of a suite, in words: identical code measured twice, which must read same. */
function controlNotes(suite: SuiteRecord): string[] {
  return suite.rows.flatMap((row) => {
    const q = row.ratios[0]
    if (!row.flags.includes(CONTROL_FLAG) || !q || q.rounds.length === 0) return []
    const failed = q.verdict === 'better' || q.verdict === 'worse'
    return [
      `A/A control (${row.group}): ${row.label} read ${formatRatio(q)} of ${q.baseline}${failed ? ". ⚠ The harness disagreed with itself: this suite's verdicts are withheld." : '.'}`,
    ]
  })
}

async function suiteSection(suite: SuiteRecord, cores: number): Promise<HtmlSection> {
  const charts = []
  for (const chart of suiteCharts(suite, cores))
    charts.push({ id: `${suite.name}-${chart.name}`, title: chart.title, svg: await renderSvg(chart.spec) })
  const tables: HtmlTable[] = []
  for (const [group, rows] of groupRows(suite.rows))
    tables.push(
      rows.some((r) => runtimeOf(r) !== undefined)
        ? runtimeTable(group, rows)
        : await groupTable(group, rows),
    )
  return {
    id: suite.name,
    heading: suite.name,
    intro: suite.description,
    charts,
    tables,
    notes: [...(suite.method ? [`Method: ${suite.method}`] : []), ...controlNotes(suite), ...suite.notes],
  }
}

/** The environment as label–value pairs, in the order a reader checks them. */
export function environmentOf(results: ResultsFile): [string, string][] {
  const env = results.environment
  return [
    ['date', env.date],
    ['commit', `${env.commit}${env.dirty ? ' (with uncommitted changes)' : ''}`],
    ['mode', env.mode],
    ['CPU', `${env.cpu}, ${env.cores} cores`],
    ['OS', `${env.os} ${env.arch}`],
    ['runtime', env.runtime],
    [
      'load average',
      `${env.loadAverage.join(' / ')} at start, ${results.run.loadAverageAtEnd.join(' / ')} at end`,
    ],
    ['threadpool', env.threadpool],
    ['command', results.run.command.join(' ')],
    ['seed', String(results.run.seed)],
    ...(results.run.filter ? [['filter', results.run.filter] as [string, string]] : []),
    ...(results.skipped.length
      ? [['skipped', results.skipped.map((s) => `${s.name}: ${s.reason}`).join('; ')] as [string, string]]
      : []),
  ]
}

/** A run's report: environment, how to read it, then per suite its charts, tables, flags and A/A controls. */
export async function renderRunHtml(results: ResultsFile): Promise<string> {
  const env = results.environment
  const advice = await adviceSection(results)
  const sections: HtmlSection[] = advice ? [advice] : []
  for (const suite of results.suites) sections.push(await suiteSection(suite, env.cores))
  sections.push({
    id: 'packages',
    heading: 'Package versions',
    tables: [{ columns: ['package', 'version'], rows: Object.entries(env.packages) }],
  })
  return renderHtml({
    title: `authlab benchmarks — ${env.date.slice(0, 16).replace('T', ' ')} UTC, ${env.commit.slice(0, 7)} (${env.mode} run)`,
    environment: environmentOf(results),
    legend: READING_GUIDE,
    sections,
  })
}
