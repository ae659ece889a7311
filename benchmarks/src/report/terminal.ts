import { styleText } from 'node:util'
import { findings } from '../advice/findings.js'
import { hasFlag, isWarned, type ResultsFile, type Row, type SuiteRecord } from '../model/types.js'
import { compactShows, type SuiteView } from '../model/view.js'
import { failedControl, readingOf } from '../stats/decide.js'
import { mapStrings, terminalText } from './escape.js'
import { findingPartText, formatNumber, groupRows, ratioCell, tableOf } from './format.js'
import { readingText, VERDICT_RULE, withheldText } from './words.js'
import { COMPACT_WIDTH, fit, type TerminalOptions, wrap } from './wrap.js'

export { COMPACT_WIDTH, type TerminalOptions, wrap } from './wrap.js'

type Style = Parameters<typeof styleText>[0]

/** Colors only for a terminal that wants them (NO_COLOR, https://no-color.org; FORCE_COLOR wins). */
export function useColor(
  stream: { isTTY?: boolean } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true
  return env.NO_COLOR === undefined && stream.isTTY === true
}

export const painter = (options: TerminalOptions) => (style: Style, text: string) =>
  // The decision is made once by useColor (which also honours FORCE_COLOR), not per stream by styleText.
  options.color ? styleText(style, text, { validateStream: false }) : text

const MARKS = ['¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹']

/**
 * Every baseline of a table named: the one most rows divide by in its title, each other one in a note
 * under the table, marked on the ratios that divide by it.
 */
function baselineMarks(rows: readonly Row[]) {
  const counts = new Map<string, { label: string; n: number }>()
  for (const q of rows.flatMap((r) => r.ratios.slice(0, 1)))
    counts.set(q.against, { label: q.baseline, n: (counts.get(q.against)?.n ?? 0) + 1 })
  const [primary, ...others] = [...counts].sort((a, b) => b[1].n - a[1].n)
  const marks = new Map(others.map(([against], i) => [against, MARKS[i] ?? '*']))
  return {
    title: primary?.[1].label,
    mark: (row: Row) => marks.get(row.ratios[0]?.against ?? '') ?? '',
    notes: others.map(([against, { label }]) => `${marks.get(against)} × vs ${label}`),
  }
}

/** candidate, figure, first ratio with its interval, verdict; the label gives way to the figures. */
function compactTable(rows: readonly Row[], width: number) {
  const named = baselineMarks(rows)
  // A row measured in another runtime says which, or the rows of one candidate would read alike.
  const label = (r: Row) => (r.runtime ? `${r.label} · ${r.runtime}` : r.label)
  const ratio = (r: Row) => (ratioCell(r) ? `${ratioCell(r)}${named.mark(r) || ' '}` : '')
  const all = rows.map((r) => [label(r), formatNumber(r.value), ratio(r), readingText(readingOf(r))])
  const keep = [0, 1, 2, 3].filter((i) => i < 2 || all.some((c) => c[i] !== ''))
  const pick = <T>(list: readonly T[]) => keep.map((i) => list[i] as T)
  const headers = pick(['candidate', rows[0]?.unit ?? '', '× [95 % interval] ', 'verdict'])
  const cells = all.map(pick)
  const figures = headers
    .slice(1)
    .map((h, i) => Math.max(h.length, ...cells.map((c) => [...(c[i + 1] ?? '')].length)))
  const labelWidth = Math.max(12, width - 2 - figures.reduce((a, b) => a + b + 2, 0))
  return {
    baseline: named.title,
    notes: named.notes,
    headers,
    cells: cells.map(([first, ...rest]) => [fit(first ?? '', labelWidth), ...rest]),
    flagged: rows.map(isWarned),
  }
}

/** The lines of one group's table: its title (with its A/A control's verdict when compact), header and rows. */
function groupLines(
  group: string,
  all: readonly Row[],
  options: TerminalOptions,
  paint: ReturnType<typeof painter>,
) {
  const width = options.width ?? COMPACT_WIDTH
  // A compact table gives its A/A control's verdict in its title: the control's row is the evidence,
  // one step away; its verdict is what a reader needs to trust the others.
  const controls = options.wide ? [] : all.filter((r) => hasFlag(r, 'control'))
  const rows = all.filter((r) => !controls.includes(r))
  const table = options.wide
    ? { ...tableOf(rows), baseline: undefined, notes: [] }
    : compactTable(rows, width)
  const { headers, cells, flagged } = table
  const widths = headers.map((h, i) => Math.max([...h].length, ...cells.map((c) => [...(c[i] ?? '')].length)))
  const pad = (c: string, i: number) => ' '.repeat(Math.max(0, (widths[i] ?? 0) - [...c].length))
  const line = (cols: readonly string[]) =>
    cols
      .map((c, i) => (i === 0 ? c + pad(c, i) : pad(c, i) + c))
      .join('  ')
      .trimEnd()
  // The group's name gives way: the baseline and the control's verdict are what the rows are read by.
  const tail = [
    ...(table.baseline ? [`× vs ${table.baseline}`] : []),
    ...controls.map((c) => `A/A ${readingText(readingOf(c))}`),
  ]
  const said = tail.map((t) => ` · ${t}`).join('')
  const title = options.wide
    ? `  ${group}${said}`
    : fit(`${fit(`  ${group}`, Math.max(20, width - [...said].length))}${said}`, width)
  return [
    paint('bold', title),
    `  ${paint('bold', line(headers))}`,
    ...cells.map((c, i) => `  ${flagged[i] ? paint('yellow', line(c)) : line(c)}`),
    ...table.notes.map((n) => paint('dim', fit(`  ${n}`, width))),
  ]
}

/**
 * One aligned table per group of the rows the suite's view shows; suspect rows in yellow, notes dimmed,
 * headers bold. A withheld verdict and a failed round change how rows read, so they are always shown;
 * the other notes, and the tables the view leaves to the reports, take `--wide`.
 */
export function renderTerminal(record: SuiteRecord, view: SuiteView, options: TerminalOptions): string {
  // Labels and notes may come from a results file or a user's module: no escape sequence of theirs reaches the terminal.
  const suite = mapStrings(record, terminalText)
  const width = options.width ?? COMPACT_WIDTH
  const paint = painter(options)
  const shows = compactShows(view)
  const shown = options.wide ? suite.rows : suite.rows.filter(shows)
  const hidden = groupRows(suite.rows).size - groupRows(shown).size
  const control = failedControl(suite.rows)
  const alerts = [
    ...(control ? [withheldText(control)] : []),
    ...suite.failures.map((f) => `${f.candidate}: a round failed (${f.reason})`),
  ]
  const notes = options.wide ? suite.notes : []
  const more = [
    hidden > 0 ? `${hidden} tables` : '',
    !options.wide && suite.notes.length > 0
      ? `${suite.notes.length} note${suite.notes.length > 1 ? 's' : ''}`
      : '',
  ]
  const extra = more.filter(Boolean).join(' and ')
  // What the suite measures and how is its declaration's, said in full by --explain and the reports.
  const pointer = `${suite.name} · method: authlab-bench --explain --suite ${suite.name}`
  const heading = options.wide
    ? `${suite.name}: ${suite.description}`
    : `${pointer}${extra ? ` · --wide adds ${extra}` : ''}`
  // Compact suites follow one another without a blank line: the bold heading sets each apart.
  const lines = options.wide
    ? ['', paint(['bold', 'cyan'], heading)]
    : [paint(['bold', 'cyan'], fit(heading, width))]
  for (const [group, rows] of groupRows(shown)) lines.push(...groupLines(group, rows, options, paint))
  const say = (prefix: string, text: string) =>
    options.wide ? `  ${prefix}${text}` : fit(`  ${prefix}${text}`, width)
  lines.push(...alerts.map((a) => paint('yellow', say('⚠ ', a))))
  lines.push(...notes.map((n) => paint('dim', say('note: ', n))))
  return `${lines.join('\n')}\n`
}

/** The verdict rule, once per run, before the first table. */
export function renderRule(options: TerminalOptions): string {
  const width = options.width ?? COMPACT_WIDTH
  const text = options.wide ? [VERDICT_RULE] : wrap(VERDICT_RULE, width, '')
  return `${text.map((l) => painter(options)('dim', l)).join('\n')}\n${options.wide ? '' : '\n'}`
}

/**
 * A claim in at most two lines: its question and as many of its parts as fit, then how many more
 * --wide and the reports hold. A claim of two parts (hash and verify, the two in-framework
 * comparisons) reads as a pair, so it may take a third line to keep both.
 */
function findingLines(question: string, parts: readonly string[], width: number): string[] {
  const lines = (n: number) => {
    const more = parts.length - n
    const text = `- ${question} ${parts.slice(0, n).join('; ')}${more > 0 ? `; ${more} more: --wide` : ''}.`
    return wrap(text, width, '  ', '')
  }
  if (parts.length <= 2 && lines(parts.length).length <= 3) return lines(parts.length)
  for (let n = parts.length - 1; n > 1; n--) if (lines(n).length <= 2) return lines(n)
  return lines(1)
}

/** What this run found: one line per claim its data answer, in the words of the README's findings. */
export function renderFindings(results: ResultsFile, options: TerminalOptions): string {
  const found = findings([mapStrings(results, terminalText)])
  if (found.length === 0) return ''
  const width = options.width ?? COMPACT_WIDTH
  const lines = found.flatMap((f) => {
    // The claim's question, up to its first colon or question mark; its parts in the findings' words.
    const match = /^[^?:]*[?:]?/.exec(f.title)?.[0] ?? f.title
    const question = /[?:]$/.test(match) ? match : `${match}:`
    const parts = f.parts.map(findingPartText)
    return options.wide ? [`- ${question} ${parts.join('; ')}.`] : findingLines(question, parts, width)
  })
  return `${painter(options)(['bold', 'cyan'], 'What this run found')}\n${lines.join('\n')}\n`
}
