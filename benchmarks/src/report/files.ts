import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ResultsFile } from '../results/results.js'
import { renderSvg } from './charts.js'
import { renderRunHtml } from './html-run.js'
import { renderMarkdown } from './markdown.js'
import { suiteCharts } from './suite-charts.js'

/**
 * Writes a run's reports beside its `<stem>.json`: one SVG per chart, the Markdown that links them, and
 * the self-contained HTML report, all from the same chart code. Returns the files written.
 */
export async function writeReports(results: ResultsFile, dir: string, stem: string): Promise<string[]> {
  const files: string[] = []
  const write = (name: string, text: string) => {
    const file = join(dir, name)
    writeFileSync(file, text)
    files.push(file)
  }
  const chartFiles = new Map<string, string[]>()
  for (const suite of results.suites) {
    const names: string[] = []
    for (const chart of suiteCharts(suite, results.environment.cores)) {
      const name = `${stem}-${suite.name}-${chart.name}.svg`
      write(name, await renderSvg(chart.spec))
      names.push(name)
    }
    chartFiles.set(suite.name, names)
  }
  write(
    `${stem}.md`,
    renderMarkdown(results, (suite) => chartFiles.get(suite) ?? []),
  )
  write(`${stem}.html`, await renderRunHtml(results))
  return files
}
