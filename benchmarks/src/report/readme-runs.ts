/**
 * The README blocks of a set of runs: the summary tables (benchmarks/README), a package's rows, the
 * findings and the frameworks' defaults. Each figure is the median of the runs; a verdict is what every
 * run decided (src/stats/held.ts), said in src/report/words.ts's words.
 */
import { existsSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { BEST_ID, FRAMEWORK_DEFAULTS } from '../advice/claims.js'
import { findings, heldThrough } from '../advice/findings.js'
import { matches, type RowKey } from '../model/keys.js'
import type { Ratio, ResultsFile, Row } from '../model/types.js'
import { compactShows } from '../model/view.js'
import { type HeldRow, heldReading, heldRows, heldValue } from '../stats/held.js'
import { chartFileName, markdownText } from './escape.js'
import { findingPartText, firstBaselines, formatCell, groupRows, ratioCell } from './format.js'
import { alignedTable } from './markdown.js'
import { type BlockContext, source } from './readme-blocks.js'
import { suiteCharts } from './suite-charts.js'
import { heldText } from './words.js'

/** The interval a ratio column shows: one run's 95 % interval, or the range of several runs. */
const intervalOf = (runs: number) => (runs === 1 ? '[95 %]' : `(range of ${runs} runs)`)

/** A held row's first ratio as a README quotes it: the latest run's magnitude and interval, the runs' verdict. */
const heldRatio = (held: HeldRow) => ({ ratio: ratioCell(held.row), verdict: heldText(heldReading(held)) })
const held = (h: HeldRow, pick: (row: Row) => number | string | undefined) => formatCell(heldValue(h, pick))

function groupTable(rows: readonly HeldRow[], columns: readonly string[]): string[] {
  const details = columns.filter((k) => rows.some(({ row }) => row.details[k] !== undefined))
  const baselines = firstBaselines(rows.map((h) => h.row))
  const how = intervalOf(rows[0]?.of ?? 1)
  const ratio = baselines.length === 1 ? `× ${baselines[0]} ${how}` : `× own baseline ${how}`
  const hasRatio = baselines.length > 0
  const headers = ['candidate', rows[0]?.row.unit ?? '', ...(hasRatio ? [ratio, 'verdict'] : []), ...details]
  const cells = rows.map((h) => {
    const { ratio: cell, verdict } = heldRatio(h)
    return [
      h.row.label,
      held(h, (r) => r.value),
      ...(hasRatio ? [cell, verdict] : []),
      ...details.map((k) => held(h, (r) => r.details[k])),
    ]
  })
  return alignedTable(headers, cells, (i) => i > 0 && headers[i] !== 'verdict' && headers[i] !== 'runs on')
}

// The rule itself is said once, in the section the block links to.
const READING = '"suspect": a flagged row.'
const READING_RUNS = (runs: number) =>
  `Each figure is the median of the ${runs} runs; a ratio is the latest run's, with its interval; the verdict is the one all ${runs} runs reached, else "undecided in k of ${runs} runs" or "varies".`

/** The benchmarks README's section: the source, then per suite the latest run's chart (when on disk) and tables. */
export function summaryFigures(ctx: BlockContext): string {
  const { runs, files, toRoot, root, views } = ctx
  const latest = runs.at(-1) as ResultsFile
  const file = files.at(-1) as string
  const out = [
    source(ctx),
    '',
    READING,
    ...(runs.length === 1 ? [] : [READING_RUNS(runs.length)]),
    `How they are made: [benchmarks/README.md](${join(toRoot, 'benchmarks/README.md')}#how-figures-are-made).`,
  ]
  const byRow = new Map(heldRows(runs).map((h) => [h.row, h]))
  for (const suite of latest.suites) {
    const view = views(suite.name)
    out.push('', `**${markdownText(suite.name)}**: ${markdownText(suite.description)}`)
    const charts = suiteCharts(suite, view, latest.environment.cores)
    const chart = charts.find((c) => view.headline?.(c)) ?? charts[0]
    const svg = chart && join(dirname(file), chartFileName(basename(file, '.json'), suite.name, chart.name))
    if (chart && svg && existsSync(join(root, svg)))
      out.push('', `![${markdownText(chart.title)}](${join(toRoot, svg)})`)
    // The groups a summary shows; the rest are one link away in the run's report.
    const shown = compactShows(view)
    for (const [group, rows] of groupRows(suite.rows))
      if (rows.every(shown))
        out.push(
          '',
          `_${markdownText(group)}_`,
          '',
          ...groupTable(
            rows.map((r) => byRow.get(r) as HeldRow),
            view.columns ?? [],
          ),
        )
  }
  return out.join('\n')
}

/** A package README's block: that candidate's rows in every suite of the runs. */
export function candidateFigures(ctx: BlockContext, candidate: string): string {
  const rows = heldRows(ctx.runs).filter((h) => h.row.candidate === candidate)
  const cells = rows.map((h) => {
    const { row } = h
    const { ratio, verdict } = heldRatio(h)
    const also = (ctx.views(row.suite).columns ?? []).filter((k) => row.details[k] !== undefined)
    return [
      `${row.suite} · ${row.group}`,
      `${held(h, (r) => r.value)} ${row.unit}`,
      row.ratios[0] ? `× ${row.ratios[0].baseline}` : '',
      ratio,
      verdict,
      also.map((k) => `${k} ${held(h, (r) => r.details[k])}`).join(', '),
    ]
  })
  const headers = ['suite · group', 'figure', 'ratio to', intervalOf(ctx.runs.length), 'verdict', 'also']
  const summary = `[all candidates](${join(ctx.toRoot, 'benchmarks', 'README.md')}#latest-figures)`
  return [
    source(ctx),
    '',
    rows.length > 0
      ? `\`${candidate}\`'s rows (${summary}):`
      : `This run has no row for \`${candidate}\` (${summary}).`,
    ...(rows.length > 0 ? ['', ...alignedTable(headers, cells, (i) => i === 1 || i === 3)] : []),
  ].join('\n')
}

/** One line per claim: each part's magnitude, interval and verdict over the runs. */
export function findingsFigures(ctx: BlockContext): string {
  const lines = findings(ctx.runs).map(
    (f) => `- **${f.title}** (${f.source}): ${f.parts.map(findingPartText).join('; ')}.`,
  )
  return [source(ctx), '', ...lines].join('\n')
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
export function defaultsFigures(ctx: BlockContext): string {
  const all = heldRows(ctx.runs)
  const find = (want: Partial<RowKey>) => all.find((h) => matches(h.row, want))
  const cell = (h: HeldRow | undefined, pick: (row: Row) => Ratio | undefined) => {
    const seen = heldThrough(h, (row) => {
      const q = pick(row)
      return q ? { ...row, flags: [], ratios: [q] } : undefined
    })
    return seen ? `${ratioCell({ ratios: [seen.ratio] })} ${heldText(seen.held)}` : 'not measured'
  }
  const ids = { suite: 'ids', operation: 'generate', runtime: undefined }
  const best = find({ ...ids, candidate: BEST_ID })
  const measured = FRAMEWORK_DEFAULTS.filter((f) => !f.needs || find({ ...ids, candidate: f.id }))
  const cells = measured.map((f) => {
    const own = find({ ...ids, candidate: f.id })
    const idCell = cell(best, (row) => {
      const q = row.ratios.find((r) => r.against === f.id)
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
  const headers = [
    'framework',
    'session ID by default',
    `IDs/s × ${best?.row.label ?? BEST_ID}`,
    'password hash by default',
    "CPU × authlab's native, same parameters",
    'event loop left free × native',
  ]
  return [source(ctx), '', ...alignedTable(headers, cells, () => false)].join('\n')
}
