/**
 * The verdict audit of several runs in words: per run the decided share of every suite, then what
 * would make a reader distrust the verdicts (undecided cells beyond the margin, wide "same", A/A
 * controls that moved, verdicts that changed between runs, intervals that missed the next run).
 */
import type { VerdictAudit } from '../stats/spread.js'

const percent = (part: number, whole: number) => (whole === 0 ? '–' : `${Math.round((100 * part) / whole)} %`)

/** A list of offending keys, or "0" when there are none. */
const listed = (keys: readonly string[]) =>
  keys.length === 0 ? '0' : `${keys.length}:\n${keys.map((k) => `    ${k}`).join('\n')}`

export function auditText(audit: VerdictAudit): string {
  const lines = ['', 'Verdicts per run (comparisons other than A/A controls):']
  audit.runs.forEach((run, i) => {
    const suites = [...run.suites]
    const decided = suites.reduce((sum, [, s]) => sum + s.decided, 0)
    const total = suites.reduce((sum, [, s]) => sum + s.total, 0)
    const each = suites.map(([name, s]) => `${name} ${s.decided}/${s.total}`).join(', ')
    lines.push(`  run ${i + 1}: ${decided} of ${total} decided (${percent(decided, total)}): ${each}`)
    lines.push(`    whole interval beyond the margin, not better/worse: ${listed(run.beyondMarginUndecided)}`)
    lines.push(`    "same" wider than twice the margin: ${listed(run.wideSame)}`)
    lines.push(`    A/A controls read better or worse: ${listed(run.controlsOff)}`)
  })
  lines.push(`Decided verdicts that differ between runs: ${listed(audit.flips)}`)
  const { covered, pairs } = audit.coverage
  lines.push(
    `A decided interval covers another run's median in ${covered} of ${pairs} pairs (${percent(covered, pairs)}).`,
    '',
  )
  return lines.join('\n')
}
