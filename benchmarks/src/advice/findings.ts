/**
 * The claims (src/advice/claims.ts) as a set of runs answers them: each part's ratio, read as the part
 * asks (one of the row's ratios, or against a ceiling), and what the runs decide of it. Types only; the
 * words are src/report/words.ts's.
 */
import type { Ratio, ResultsFile, Row } from '../model/types.js'
import { type Held, type HeldRow, heldReading, heldRows } from '../stats/held.js'
import { scaledRatio } from '../stats/verdict.js'
import { CLAIMS, type ClaimPart } from './claims.js'

export interface FindingPart {
  readonly label: string
  /** The latest run's ratio, as the part reads it. */
  readonly ratio: Ratio
  readonly held: Held
}

export interface Finding {
  readonly title: string
  readonly source: string
  readonly parts: readonly FindingPart[]
}

/**
 * The row with the ratio a claim part asks for as its only ratio, read against the part's ceiling when
 * it names one; undefined where the row has no such ratio.
 */
function focused(row: Row, part: ClaimPart): Row | undefined {
  const found = part.ratio ? row.ratios.find((q) => part.ratio?.(q)) : row.ratios[0]
  const ceiling = part.ceiling === undefined ? 1 : row.details[part.ceiling]
  if (!found || typeof ceiling !== 'number' || !(ceiling > 0)) return undefined
  const chosen = ceiling === 1 ? found : scaledRatio(found, ceiling, `${ceiling}`)
  return { ...row, flags: row.flags.filter((f) => f.kind !== 'baseline'), ratios: [chosen] }
}

/** A held row seen through `view`: the latest run's ratio and what every run decides of it. */
export function heldThrough(h: HeldRow | undefined, view: (row: Row) => Row | undefined) {
  const row = h && view(h.row)
  const ratio = row?.ratios[0]
  if (!h || !row || !ratio) return undefined
  return { ratio, held: heldReading({ row, runs: h.runs.flatMap((r) => view(r) ?? []), of: h.of }) }
}

/** The claims the runs answer, each with the parts they have rows for. */
export function findings(runs: readonly ResultsFile[]): Finding[] {
  const latest = runs.at(-1)
  if (!latest) return []
  const rows = latest.suites.flatMap((s) => s.rows)
  const held = heldRows(runs)
  return CLAIMS.flatMap((claim) => {
    const parts = claim.parts(rows, latest.environment.cores).flatMap((part): FindingPart[] => {
      const seen = heldThrough(
        held.find((x) => part.pick(x.row)),
        (row) => focused(row, part),
      )
      return seen ? [{ label: part.label, ...seen }] : []
    })
    return parts.length === 0 ? [] : [{ title: claim.title, source: claim.source, parts }]
  })
}
