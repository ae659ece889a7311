import { dirname, join, resolve } from 'node:path'
import { InvalidOptionError } from '@authlab/core'
import type { RuntimeClaim } from '../discover/runtime-claims.js'
import { writeRegularFile } from '../files/regular.js'
import type { ResultsFile } from '../model/types.js'
import type { Views } from '../model/view.js'
import { renderSvg } from './charts.js'
import type { Chart } from './document.js'
import { chartFileName } from './escape.js'
import { renderHtml } from './html.js'
import { renderMarkdown } from './markdown.js'
import { runDocument } from './run-document.js'
import { suiteCharts } from './suite-charts.js'

export interface ReportOptions {
  readonly views: Views
  readonly claims: ReadonlyMap<string, RuntimeClaim>
}

/** Every suite's charts, each drawn once, by suite name. */
export async function drawCharts(results: ResultsFile, views: Views): Promise<Map<string, Chart[]>> {
  const drawn = new Map<string, Chart[]>()
  for (const suite of results.suites) {
    const charts: Chart[] = []
    for (const chart of suiteCharts(suite, views(suite.name), results.environment.cores))
      charts.push({
        id: `${suite.name}-${chart.name}`,
        title: chart.title,
        svg: await renderSvg(chart.spec),
        file: chart.name,
      })
    drawn.set(suite.name, charts)
  }
  return drawn
}

/** A run's self-contained HTML report (every chart and the rounds of every row drawn inline). */
export async function renderRunHtml(results: ResultsFile, options: ReportOptions): Promise<string> {
  const charts = await drawCharts(results, options.views)
  return renderHtml(
    await runDocument(results, { ...options, charts: (s) => charts.get(s) ?? [], strips: true }),
  )
}

/**
 * Writes a run's reports beside its `<stem>.json`: one SVG per chart, the Markdown that links them, and
 * the self-contained HTML report, all from one document. Returns the files written. Names taken from the
 * results file (suite and chart names) are reduced to safe, bounded file names, nothing is written
 * outside `dir`, and nothing through a symbolic link or into anything but a regular file
 * (`writeRegularFile`): a results file, and the folder it lies in, are untrusted input.
 */
export async function writeReports(
  results: ResultsFile,
  dir: string,
  stem: string,
  options: ReportOptions,
): Promise<string[]> {
  const files: string[] = []
  const write = (name: string, text: string) => {
    const file = join(dir, name)
    if (dirname(resolve(file)) !== resolve(dir))
      throw new InvalidOptionError(`refusing to write ${JSON.stringify(name)} outside ${dir}`)
    writeRegularFile(file, text)
    files.push(file)
  }
  const drawn = await drawCharts(results, options.views)
  for (const [suite, charts] of drawn)
    for (const [i, chart] of charts.entries()) {
      const file = chartFileName(stem, suite, chart.file ?? chart.id)
      write(file, chart.svg)
      charts[i] = { ...chart, file }
    }
  const document = (strips: boolean) =>
    runDocument(results, { ...options, charts: (s) => drawn.get(s) ?? [], strips })
  write(`${stem}.md`, renderMarkdown(await document(false)))
  write(`${stem}.html`, renderHtml(await document(true)))
  return files
}
