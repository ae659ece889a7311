import type { TopLevelSpec } from 'vega-lite'
import type { Row } from './types.js'

/** One chart of a suite: `name` makes its file name and its HTML anchor. */
export interface SuiteChart {
  readonly name: string
  readonly title: string
  readonly spec: TopLevelSpec
}

/**
 * What a suite shows of its rows, declared beside it (its folder's view): every reporter reads it, so
 * changing what a suite summarises or charts touches that suite only.
 */
export interface SuiteView {
  /** Whether a summary (the terminal, a README) shows a row; default every row. */
  readonly summary?: (row: Row) => boolean
  /** Whether the compact outputs (the terminal, a README block) show a row of the summary; default every one. */
  readonly terminal?: (row: Row) => boolean
  /** Details a README table shows beside the figure, in order, where a group has them. */
  readonly columns?: readonly string[]
  /** The suite's charts in reading order; default one per group (src/report/suite-charts.ts). */
  readonly charts?: (rows: readonly Row[], cores: number) => readonly SuiteChart[]
  /** The chart a README shows of the suite; default the first. */
  readonly headline?: (chart: SuiteChart) => boolean
}

/** Whether the compact outputs (the terminal, a README block) show a row. */
export const compactShows =
  (view: SuiteView) =>
  (row: Row): boolean =>
    (view.summary?.(row) ?? true) && (view.terminal?.(row) ?? true)

/** Each suite's view by its name: a suite no declaration names (an older file's) gets the default. */
export type Views = (suite: string) => SuiteView
