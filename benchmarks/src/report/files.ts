import { dirname, join, resolve } from 'node:path'
import { InvalidOptionError } from '@authlab/core'
import { writeRegularFile } from '../files/regular.js'
import type { ResultsFile } from '../results/results.js'
import { renderSvg } from './charts.js'
import { chartFileName } from './escape.js'
import { renderRunHtml } from './html-run.js'
import { renderMarkdown } from './markdown.js'
import { suiteCharts } from './suite-charts.js'

/**
 * Writes a run's reports beside its `<stem>.json`: one SVG per chart, the Markdown that links them, and
 * the self-contained HTML report, all from the same chart code. Returns the files written. Names taken
 * from the results file (suite and chart names) are reduced to safe file-name characters, nothing is
 * written outside `dir`, and nothing through a symbolic link or into anything but a regular file
 * (`writeRegularFile`): a results file, and the folder it lies in, are untrusted input.
 */
export async function writeReports(results: ResultsFile, dir: string, stem: string): Promise<string[]> {
  const files: string[] = []
  const write = (name: string, text: string) => {
    const file = join(dir, name)
    if (dirname(resolve(file)) !== resolve(dir))
      throw new InvalidOptionError(`refusing to write ${JSON.stringify(name)} outside ${dir}`)
    writeRegularFile(file, text)
    files.push(file)
  }
  const chartFiles = new Map<string, string[]>()
  for (const suite of results.suites) {
    const names: string[] = []
    for (const chart of suiteCharts(suite, results.environment.cores)) {
      const name = chartFileName(stem, suite.name, chart.name)
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
