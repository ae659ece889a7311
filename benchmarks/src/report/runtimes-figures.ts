import { againstOf, keyOf } from '../keys.js'
import { CONTROL_FLAG } from '../measure/verdict.js'
import type { ResultsFile } from '../results/results.js'
import type { Row } from '../types.js'
import { alignedTable, source } from './figures.js'
import { verdictText } from './words.js'

/** The settings a cross-runtime block shows, in order: the ones the README's advice rests on. */
const SETTINGS: readonly { readonly suite: string; readonly setting: string }[] = [
  { suite: 'hash', setting: 'argon2id:m=19456,t=2,p=1' },
  { suite: 'hash', setting: 'bcrypt:cost=10' },
  { suite: 'hash', setting: 'scrypt:ln=14,r=16,p=1' },
  { suite: 'ids', setting: 'defaults' },
]

const runtimeName = (r: { id: string; name: string; version: string }) =>
  r.name === 'node' ? `Node ${r.version}` : `${r.name[0]?.toUpperCase()}${r.name.slice(1)} ${r.version}`

/** A candidate's ratio in one runtime, in a few words, or a dash where that runtime did not run it. */
function cell(row: Row | undefined): string {
  const q = row?.ratios[0]
  if (!row || !q || q.rounds.length === 0) return '—'
  return `${q.value.toFixed(2)}× ${verdictText(q)}`
}

/**
 * One table across runtimes from a `--runtime` run: a line per candidate at each headline setting, a
 * column per runtime, each cell the candidate's ratio to the setting's baseline measured in the same
 * rounds of that runtime. Rows are found by key; labels only name them.
 */
export function runtimesFigures(
  runs: readonly ResultsFile[],
  files: readonly string[],
  toRoot: string,
): string {
  const run = runs.at(-1) as ResultsFile
  const runtimes = run.environment.runtimes ?? []
  const rows = run.suites.flatMap((s) => s.rows).filter((r) => !r.flags.includes(CONTROL_FLAG))
  const lines: string[][] = []
  for (const { suite, setting } of SETTINGS) {
    const here = rows.filter((r) => {
      const k = keyOf(r)
      return (
        k.suite === suite && k.setting === setting && (k.operation === 'hash' || k.operation === 'generate')
      )
    })
    const candidates = [...new Set(here.filter((r) => r.ratios.length > 0).map((r) => r.candidate))]
    for (const candidate of candidates) {
      const of = here.filter((r) => r.candidate === candidate)
      const first = of.find((r) => r.ratios[0]) as Row
      const baseline = here.find((r) => r.candidate === againstOf(first.ratios[0] as Row['ratios'][0]))
      const what = `${first.group.split(' · ')[0]}: ${first.label} ÷ ${baseline?.label ?? first.ratios[0]?.baseline}`
      lines.push([what, ...runtimes.map((rt) => cell(of.find((r) => r.runtime === rt.id)))])
    }
  }
  const table = alignedTable(
    ['candidate ÷ baseline, same rounds', ...runtimes.map(runtimeName)],
    lines,
    () => false,
  )
  return [source(runs, files, toRoot), '', ...table].join('\n')
}
