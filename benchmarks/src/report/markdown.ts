import type { ResultsFile } from '../results/results.js'
import { markdownCode, markdownText, relativeHref } from './escape.js'
import { groupRows, tableOf } from './format.js'
import { VERDICT_RULE } from './words.js'

function markdownTable(rows: Parameters<typeof tableOf>[0]): string[] {
  const { headers, cells, flagged } = tableOf(rows)
  const align = headers.map((_, i) => (i === 0 || i === headers.length - 1 ? ':--' : '--:'))
  return [
    `| ${headers.map(markdownText).join(' | ')} |`,
    `| ${align.join(' | ')} |`,
    // A row flagged as untrustworthy is italicised and marked ⚠ so it is not read as fact.
    ...cells.map(
      (c, i) =>
        `| ${c.map((x, j) => (flagged[i] && j === 0 ? `⚠ _${markdownText(x)}_` : markdownText(x))).join(' | ')} |`,
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
    `# authlab benchmarks — ${markdownText(env.date.slice(0, 10))} (${markdownText(env.mode)} run)`,
    '',
    `Commit ${markdownCode(env.commit.slice(0, 12))}${env.dirty ? ' (with uncommitted changes)' : ''} · ${markdownText(env.cpu)}, ${env.cores} cores · ${markdownText(`${env.os} ${env.arch}`)} · ${markdownText(env.runtime)} · load average ${env.loadAverage.join(' / ')} at start, ${results.run.loadAverageAtEnd.join(' / ')} at end · ${markdownCode(results.run.command.join(' '))} · ${markdownText(env.threadpool)}`,
    '',
    `${VERDICT_RULE} Rows marked ⚠ carry a flag that says why not to trust them.`,
  ]
  for (const suite of results.suites) {
    out.push('', `## ${markdownText(suite.name)}`, '', markdownText(suite.description))
    if (suite.method) out.push('', `Method: ${markdownText(suite.method)}`)
    for (const chart of chartFiles(suite.name))
      out.push('', `![${markdownText(suite.name)} chart](${relativeHref(chart)})`)
    for (const [group, rows] of groupRows(suite.rows))
      out.push('', `### ${markdownText(group)}`, '', ...markdownTable(rows))
    if (suite.notes.length > 0) out.push('', ...suite.notes.map((n) => `- ${markdownText(n)}`))
  }
  if (results.skipped.length > 0) {
    out.push(
      '',
      '## Skipped packages',
      '',
      ...results.skipped.map((s) => `- ${markdownCode(s.name)}: ${markdownText(s.reason)}`),
    )
  }
  out.push('', '<details><summary>Package versions</summary>', '')
  out.push(
    ...Object.entries(env.packages).map(([name, version]) => `- ${markdownText(`${name} ${version}`)}`),
    '',
    '</details>',
    '',
  )
  return out.join('\n')
}
