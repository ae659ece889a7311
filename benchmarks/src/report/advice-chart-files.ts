import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { chartPicks } from '../advice/picks.js'
import type { ResultsFile } from '../model/types.js'
import { tradeOffSpec } from './advice-chart.js'
import { renderSvg } from './charts.js'
import { figureBlocks, tradeOffChartPath } from './readme-blocks.js'

/** Every trade-off chart the root README's advice blocks link: its path (from the root) and its SVG. */
export async function tradeOffCharts(
  readme: string,
  read: (file: string) => ResultsFile,
): Promise<{ file: string; svg: string }[]> {
  const charts: { file: string; svg: string }[] = []
  for (const block of figureBlocks(readme).filter((b) => b.kind === 'advice')) {
    const picks = chartPicks(block.files.map(read))
    charts.push({ file: tradeOffChartPath(block.files), svg: await renderSvg(tradeOffSpec(picks)) })
  }
  return charts
}

/**
 * Writes the charts the root README links (`check`: writes nothing, reports each one that differs).
 * Returns how many were missing or stale.
 */
export async function writeTradeOffCharts(
  root: string,
  read: (file: string) => ResultsFile,
  check: boolean,
  report: (line: string) => void,
): Promise<number> {
  let stale = 0
  for (const { file, svg } of await tradeOffCharts(readFileSync(join(root, 'README.md'), 'utf8'), read)) {
    const path = join(root, file)
    if (existsSync(path) && readFileSync(path, 'utf8') === svg) continue
    stale++
    if (check) report(`${file} disagrees with its results files: run npm run figures`)
    else {
      writeFileSync(path, svg)
      report(`wrote ${file}`)
    }
  }
  return stale
}
