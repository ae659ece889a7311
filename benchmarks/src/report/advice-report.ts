import { costLines } from '../advice/cost-lines.js'
import { chartPicks } from '../advice/picks.js'
import type { RuntimeClaim } from '../discover/runtime-claims.js'
import type { ResultsFile } from '../model/types.js'
import { tradeOffSpec } from './advice-chart.js'
import type { AdviceRow } from './advice-row.js'
import { adviceRows } from './advice-table.js'
import { renderSvg } from './charts.js'
import { absentLines, COST_HEADERS, costCells, nonLinearLines, referenceLines } from './costs-table.js'
import type { Section } from './document.js'
import { PLATFORM_COLUMNS, platformNotes, platformRows } from './platform-table.js'

/** What a part of the advice that these runs did not measure says. */
export const NOT_MEASURED = 'not measured in these runs'

/** A need's row as table cells: what to use, why, what it costs. */
export const adviceCells = (r: AdviceRow) => [
  r.need,
  r.use ?? NOT_MEASURED,
  r.why ?? NOT_MEASURED,
  r.cost ?? NOT_MEASURED,
]

export const ADVICE_COLUMNS = ['need', 'use', 'why (measured)', 'what it costs'] as const

/** The rows this run can answer: a run of some suites leaves the others' needs unmeasured. */
export const answered = (results: ResultsFile) => adviceRows([results]).filter((r) => r.why !== undefined)

/** The report's first section: the advice table, the trade-off chart and the costs. */
export async function adviceSection(
  results: ResultsFile,
  claims: ReadonlyMap<string, RuntimeClaim>,
): Promise<Section | undefined> {
  const rows = answered(results)
  const costs = costLines([results], claims)
  // A cross-runtime run answers the platforms; a run on this Node alone has none to show.
  const platforms = platformRows([results]).filter((p) => p.measured)
  if (rows.length === 0 && costs.length === 0) return undefined
  const title = 'Server CPU per login against attacker guesses per second per GPU'
  const charts =
    costs.length > 0
      ? [{ id: 'advice-trade-off', title, svg: await renderSvg(tradeOffSpec(chartPicks([results]))) }]
      : []
  return {
    id: 'advice',
    heading: 'Which to use, from this run',
    intro:
      'Each row names what to use for a need, why (a figure of this run) and what it costs; attacker rates are published hashcat figures on one RTX 4090, scaled to each setting.',
    charts,
    tables: [
      { columns: ADVICE_COLUMNS, rows: rows.map(adviceCells) },
      ...(platforms.length > 0
        ? [
            {
              caption: 'Where the login runs',
              columns: PLATFORM_COLUMNS,
              rows: platforms.map((p) => p.cells),
            },
          ]
        : []),
      ...(costs.length > 0
        ? [
            {
              caption: 'What each hasher setting costs',
              columns: [...COST_HEADERS],
              rows: costs.map(costCells),
            },
          ]
        : []),
    ],
    notes: [
      ...(platforms.length > 0 ? platformNotes([results]) : []),
      ...absentLines(costs),
      ...referenceLines(costs),
      ...nonLinearLines(costs),
    ],
  }
}
