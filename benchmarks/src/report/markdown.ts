import { VERDICT_RULE } from '../measure/verdict.js'
import type { ResultsFile } from '../results/results.js'
import { groupRows, tableOf } from './format.js'

// A cell must not end the table (`|`) or open an HTML tag (`<`).
export const escapeCell = (cell: string) => cell.replaceAll('|', '\\|').replaceAll('<', '&lt;')

function markdownTable(rows: Parameters<typeof tableOf>[0]): string[] {
  const { headers, cells, flagged } = tableOf(rows)
  const align = headers.map((_, i) => (i === 0 || i === headers.length - 1 ? ':--' : '--:'))
  return [
    `| ${headers.map(escapeCell).join(' | ')} |`,
    `| ${align.join(' | ')} |`,
    // A row flagged as untrustworthy is italicised and marked ⚠ so it is not read as fact.
    ...cells.map(
      (c, i) =>
        `| ${c.map((x, j) => (flagged[i] && j === 0 ? `⚠ _${escapeCell(x)}_` : escapeCell(x))).join(' | ')} |`,
    ),
  ]
}

/** The report: environment, then per suite its description, charts, tables and notes. */
export function renderMarkdown(
  results: ResultsFile,
  chartFiles: (suite: string) => readonly string[],
): string {
  const env = results.environment
  const out = [
    `# authlab benchmarks — ${env.date.slice(0, 10)} (${env.mode} run)`,
    '',
    `Commit \`${env.commit.slice(0, 12)}\`${env.dirty ? ' (with uncommitted changes)' : ''} · ${env.cpu}, ${env.cores} cores · ${env.os} ${env.arch} · ${env.runtime} · load average ${env.loadAverage.join(' / ')} at start, ${results.run.loadAverageAtEnd.join(' / ')} at end · \`${results.run.command.join(' ')}\` · ${env.threadpool}`,
    '',
    `${VERDICT_RULE} Rows marked ⚠ carry a flag that says why not to trust them.`,
  ]
  for (const suite of results.suites) {
    out.push('', `## ${suite.name}`, '', suite.description)
    for (const chart of chartFiles(suite.name)) out.push('', `![${suite.name} chart](${chart})`)
    for (const [group, rows] of groupRows(suite.rows))
      out.push('', `### ${group}`, '', ...markdownTable(rows))
    if (suite.notes.length > 0) out.push('', ...suite.notes.map((n) => `- ${n}`))
  }
  if (results.skipped.length > 0) {
    out.push('', '## Skipped packages', '', ...results.skipped.map((s) => `- \`${s.name}\`: ${s.reason}`))
  }
  out.push('', '<details><summary>Package versions</summary>', '')
  out.push(
    ...Object.entries(env.packages).map(([name, version]) => `- ${name} ${version}`),
    '',
    '</details>',
    '',
  )
  return out.join('\n')
}
