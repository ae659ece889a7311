import { styleText } from 'node:util'
import { CONTROL_FLAG } from '../measure/verdict.js'
import type { ResultsFile, SuiteRecord } from '../results/results.js'
import type { Row } from '../types.js'
import { mapStrings, terminalText } from './escape.js'
import { findings } from './figures.js'
import { formatNumber, groupRows, inTerminal, ratioCell, runtimeOf, tableOf, verdictWord } from './format.js'
import { VERDICT_RULE } from './words.js'

type Style = Parameters<typeof styleText>[0]

/** Colors only for a terminal that wants them (NO_COLOR, https://no-color.org; FORCE_COLOR wins). */
export function useColor(
  stream: { isTTY?: boolean } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true
  return env.NO_COLOR === undefined && stream.isTTY === true
}

/** A note that begins so says the suite's verdicts were withheld: the terminal always shows it. */
export const WITHHELD = 'Verdicts withheld'

/** The compact tables fit this many columns: a default terminal is 80–100 wide, and wrapped tables are unreadable. */
export const COMPACT_WIDTH = 100

export interface TerminalOptions {
  readonly color: boolean
  /** Every column (rme, rounds, each baseline, every detail, flags) instead of the compact four. */
  readonly wide: boolean
  readonly width?: number
}

/** Shortens text to `width` columns with an ellipsis; `--wide` prints it whole. */
function fit(text: string, width: number): string {
  const chars = [...text]
  return chars.length <= width ? text : `${chars.slice(0, Math.max(width - 1, 1)).join('')}…`
}

/** A figure and its unit stay on one line: "(±10 %)" and "290 ms" are never split. */
const UNIT = /^(%|ms|µs|ns|s|KiB|MiB|GiB|req\/s)(\W|$)/

function unbreakable(words: readonly string[]): string[] {
  const joined: string[] = []
  for (const word of words) {
    const previous = joined.at(-1)
    if (previous !== undefined && UNIT.test(word) && /\d$/.test(previous))
      joined[joined.length - 1] = `${previous} ${word}`
    else joined.push(word)
  }
  return joined
}

/**
 * Breaks prose at spaces so no line is longer than `width` (the notes are paragraphs). `first` indents
 * the first line, `indent` the others: a list entry hangs its continuation lines under its text.
 */
export function wrap(text: string, width: number, indent: string, first = indent): string[] {
  const lines: string[] = []
  let line = ''
  const lead = () => (lines.length === 0 ? first : indent)
  for (const word of unbreakable(text.split(/\s+/))) {
    const next = line ? `${line} ${word}` : word
    if ([...lead(), ...next].length > width && line) {
      lines.push(lead() + line)
      line = word
    } else line = next
  }
  if (line) lines.push(lead() + line)
  return lines.map((l) => fit(l, width))
}

/**
 * candidate, figure, first ratio with its interval, verdict; the label gives way to the figures. A
 * column no row fills (a suite without ratios) is left out.
 */
function compactTable(rows: readonly Row[], width: number) {
  const baselines = [...new Set(rows.flatMap((r) => r.ratios.slice(0, 1).map((q) => q.baseline)))]
  const baseline = baselines.length > 1 ? 'each row’s own baseline' : baselines[0]
  // A row measured in another runtime says which, or the rows of one candidate would read alike.
  const label = (r: Row) => (runtimeOf(r) ? `${r.label} · ${runtimeOf(r)}` : r.label)
  const all = rows.map((r) => [label(r), formatNumber(r.value), ratioCell(r), verdictWord(r)])
  const keep = [0, 1, 2, 3].filter((i) => i < 2 || all.some((c) => c[i] !== ''))
  const pick = <T>(list: readonly T[]) => keep.map((i) => list[i] as T)
  const headers = pick(['candidate', rows[0]?.unit ?? '', '× [95 % interval]', 'verdict'])
  const cells = all.map(pick)
  const figures = headers
    .slice(1)
    .map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i + 1] ?? '').length)))
  const labelWidth = Math.max(12, width - 2 - figures.reduce((a, b) => a + b + 2, 0))
  return {
    baseline,
    headers,
    cells: cells.map(([label, ...rest]) => [fit(label ?? '', labelWidth), ...rest]),
    flagged: rows.map((r) => verdictWord(r).endsWith('suspect')),
  }
}

/**
 * One aligned table per group; suspect rows in yellow, notes dimmed, headers bold. By default the
 * compact columns fit 100 columns; `wide` prints every column.
 */
export function renderTerminal(record: SuiteRecord, options: TerminalOptions): string {
  // Labels and notes may come from a results file or a user's module: no escape sequence of theirs reaches the terminal.
  const suite = mapStrings(record, terminalText)
  const width = options.width ?? COMPACT_WIDTH
  // The decision is made once by useColor (which also honours FORCE_COLOR), not per stream by styleText.
  const paint = (style: Style, text: string) =>
    options.color ? styleText(style, text, { validateStream: false }) : text
  const shown = options.wide ? suite.rows : suite.rows.filter(inTerminal)
  const hidden = groupRows(suite.rows).size - groupRows(shown).size
  // A withheld verdict changes how every row reads, so it stays in sight; the other notes are one step away.
  const kept = options.wide ? suite.notes : suite.notes.filter((n) => n.startsWith(WITHHELD))
  const notes = suite.notes.length - kept.length
  const extra = [
    hidden > 0 ? `${hidden} tables` : '',
    notes > 0 ? `${notes} note${notes > 1 ? 's' : ''}` : '',
  ]
    .filter(Boolean)
    .join(' and ')
  // What the suite measures and how is its declaration's, said in full by --explain and the reports.
  const pointer = `${suite.name} · method: authlab-bench --explain --suite ${suite.name}`
  const heading = options.wide
    ? `${suite.name}: ${suite.description}`
    : `${pointer}${extra ? ` · --wide adds ${extra}` : ''}`
  // Compact suites follow one another without a blank line: the bold heading sets each apart.
  const lines = options.wide
    ? ['', paint(['bold', 'cyan'], heading)]
    : [paint(['bold', 'cyan'], fit(heading, width))]
  for (const [group, all] of groupRows(shown)) {
    // A compact table gives its A/A control's verdict in its title: the control's row is the evidence,
    // one step away; its verdict is what a reader needs to trust the others.
    const controls = options.wide ? [] : all.filter((r) => r.flags.includes(CONTROL_FLAG))
    const rows = all.filter((r) => !controls.includes(r))
    const table = options.wide ? { ...tableOf(rows), baseline: undefined } : compactTable(rows, width)
    const { headers, cells, flagged } = table
    const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => [...(c[i] ?? '')].length)))
    const line = (cols: readonly string[]) =>
      cols
        .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
        .join('  ')
        .trimEnd()
    const title = [table.baseline ? `${group} · × vs ${table.baseline}` : group]
      .concat(controls.map((c) => `A/A ${verdictWord(c)}`))
      .join(' · ')
    lines.push(paint('bold', options.wide ? `  ${title}` : fit(`  ${title}`, width)))
    lines.push(`  ${paint('bold', line(headers))}`)
    lines.push(...cells.map((c, i) => `  ${flagged[i] ? paint('yellow', line(c)) : line(c)}`))
  }
  // One line a note: the reports and --wide give each in full.
  const said = kept.map((n) => (options.wide ? `  note: ${n}` : fit(`  note: ${n}`, width)))
  lines.push(...said.map((n) => paint('dim', n)))
  return `${lines.join('\n')}\n`
}

const paintWith = (options: TerminalOptions) => (style: Style, text: string) =>
  options.color ? styleText(style, text, { validateStream: false }) : text

/** The verdict rule, once per run, before the first table. */
export function renderRule(options: TerminalOptions): string {
  const width = options.width ?? COMPACT_WIDTH
  const text = options.wide ? [VERDICT_RULE] : wrap(VERDICT_RULE, width, '')
  return `${text.map((l) => paintWith(options)('dim', l)).join('\n')}\n${options.wide ? '' : '\n'}`
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
    return options.wide ? [`- ${question} ${f.parts.join('; ')}.`] : findingLines(question, f.parts, width)
  })
  return `${paintWith(options)(['bold', 'cyan'], 'What this run found')}\n${lines.join('\n')}\n`
}
