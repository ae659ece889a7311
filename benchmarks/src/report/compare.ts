import type { Environment } from '@authlab/workspace'
import type { ResultsFile } from '../model/types.js'
import type { Change, Comparison } from '../stats/compare.js'
import { markdownText } from './escape.js'
import { formatNumber } from './format.js'
import { changeText } from './words.js'

export type CompareFormat = 'text' | 'md' | 'json'

/** One line per side: what was measured where, so a reader sees when two sides ran on different machines. */
function sideLine(name: string, files: readonly ResultsFile[]): string {
  const describe = (env: Environment, command: readonly string[]) =>
    `${env.commit.slice(0, 7)}${env.dirty ? '+dirty' : ''} ${env.date.slice(0, 16)} ${env.mode} · ${env.cpu}, ${env.cores} cores · ${env.runtime} · load ${env.loadAverage.join('/')} · ${command.join(' ')}`
  return `${name}: ${files.map((f) => describe(f.environment, f.run.command)).join(' | ')}`
}

const signed = (pct: number) => `${pct >= 0 ? '+' : ''}${pct.toFixed(1)}%`

/** A change as the cells every format prints: row, before → after, Δ, p, verdict. */
export function changeCells(c: Change): string[] {
  return [
    c.key,
    `${formatNumber(c.before)} → ${formatNumber(c.after)} ${c.unit}`,
    Number.isFinite(c.lowPct) && Number.isFinite(c.highPct)
      ? `${signed(c.deltaPct)} [${signed(c.lowPct)}, ${signed(c.highPct)}]`
      : signed(c.deltaPct),
    c.p.toFixed(3),
    changeText(c.verdict, c.reason, `${c.roundsBefore} vs ${c.roundsAfter}`),
  ]
}

export const CHANGE_COLUMNS = ['row', 'before → after', 'Δ', 'p', 'verdict'] as const

/** The comparison as text (terminal), Markdown (a CI comment) or JSON (a machine). */
export function renderComparison(
  comparison: Comparison,
  before: readonly ResultsFile[],
  after: readonly ResultsFile[],
  format: CompareFormat,
): string {
  const regressions = comparison.changes.filter((c) => c.verdict === 'worse').length
  const summary = `${comparison.changes.length} compared, ${regressions} regression(s)`
  if (format === 'json') {
    const environments = (files: readonly ResultsFile[]) =>
      files.map((f) => ({ ...f.environment, run: f.run }))
    return `${JSON.stringify({ before: environments(before), after: environments(after), ...comparison, regressions }, null, 2)}\n`
  }
  const sides = [sideLine('before', before), sideLine('after', after)]
  const rows = comparison.changes.map((c) => ({ c, cells: changeCells(c) }))
  if (format === 'md') {
    return [
      ...sides.map((s) => `- ${markdownText(s)}`),
      '',
      `| ${CHANGE_COLUMNS.join(' | ')} |`,
      '| :-- | --: | --: | --: | :-- |',
      ...rows.map(
        ({ c, cells }) =>
          `| ${cells.map((x, i) => (i === 4 && c.verdict === 'worse' ? `**${x}**` : markdownText(x))).join(' | ')} |`,
      ),
      ...comparison.onlyBefore.map((k) => `| ${markdownText(k)} | only before | | | |`),
      ...comparison.onlyAfter.map((k) => `| ${markdownText(k)} | only after | | | |`),
      ...comparison.incomparable.map(
        (c) => `| ${markdownText(c.key)} | not compared: ${markdownText(`${c.before} → ${c.after}`)} | | | |`,
      ),
      '',
      summary,
      '',
    ].join('\n')
  }
  return [
    ...sides,
    ...rows.map(
      ({ cells: [key, values, delta, p, verdict] }) => `${key}: ${values} (${delta}, p=${p}) ${verdict}`,
    ),
    ...comparison.onlyBefore.map((k) => `${k}: only before`),
    ...comparison.onlyAfter.map((k) => `${k}: only after`),
    ...comparison.incomparable.map((c) => `${c.key}: not compared (${c.before} → ${c.after})`),
    summary,
    '',
  ].join('\n')
}
