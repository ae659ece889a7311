/**
 * The report's one document model: a run (or an index of runs) as a title, the environment, how to read
 * it and sections of charts, tables and notes. src/report/html.ts and markdown.ts render it; the
 * terminal and the README blocks render the same tables (src/report/format.ts).
 */
import type { ResultsFile } from '../model/types.js'

/** A table cell: text (escaped by each renderer), an SVG made by charts.ts (inlined as is), or a relative link. */
export type Cell = string | { readonly svg: string } | { readonly href: string; readonly text: string }

export interface Table {
  readonly caption?: string
  readonly columns: readonly string[]
  readonly rows: ReadonlyArray<ReadonlyArray<Cell>>
  /** Per body row: highlighted, because a flag says not to read it as fact. */
  readonly flagged?: readonly boolean[]
  readonly notes?: readonly string[]
}

/** A chart drawn once: its SVG, and the file it was written to beside the run (for Markdown). */
export interface Chart {
  readonly id: string
  readonly title: string
  readonly svg: string
  readonly file?: string
}

export interface Section {
  readonly id?: string
  readonly heading: string
  readonly intro?: string
  readonly charts?: readonly Chart[]
  readonly tables?: readonly Table[]
  readonly notes?: readonly string[]
  /** Markup our own code built from escaped parts (the index's run picker), shown after the intro (HTML only). */
  readonly markup?: string
}

export interface Document {
  readonly title: string
  /** The environment, shown first, then how to read the page. */
  readonly environment: ReadonlyArray<readonly [string, string]>
  readonly legend?: readonly string[]
  readonly sections: readonly Section[]
  readonly script?: string
}

/** The environment of a run as label–value pairs, in the order a reader checks them: said once for every format. */
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
  ]
}
