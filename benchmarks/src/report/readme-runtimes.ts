import { whyNotIn } from '../discover/runtime-claims.js'
import { EDGE_SCRYPT } from '../discover/settings.js'
import { settingKey } from '../model/keys.js'
import { hasFlag, type ResultsFile, type Row } from '../model/types.js'
import { markdownText } from './escape.js'
import { alignedTable } from './markdown.js'
import { type BlockContext, source } from './readme-blocks.js'
import { verdictText } from './words.js'

/** The settings a cross-runtime block shows, in order: the ones the README's advice rests on. */
const SETTINGS: readonly { readonly suite: string; readonly setting: string }[] = [
  { suite: 'hash', setting: 'argon2id:m=19456,t=2,p=1' },
  { suite: 'hash', setting: 'bcrypt:cost=10' },
  { suite: 'hash', setting: 'pbkdf2-sha256:iterations=600000' },
  { suite: 'hash', setting: 'scrypt:ln=14,r=16,p=1' },
  { suite: 'hash', setting: settingKey('scrypt', EDGE_SCRYPT.params) },
  { suite: 'ids', setting: 'defaults' },
]

/** A runtime's name as its column and its notes give it. */
function runtimeName(r: { id: string; name: string; version: string }): string {
  if (r.name === 'node') return `Node ${r.version}`
  if (r.name === 'workerd') return `workerd ${r.version}`
  return `${r.name[0]?.toUpperCase()}${r.name.slice(1)} ${r.version}`
}

/** A column's header: workerd's says its clock, the workerd process's CPU time (the others' is wall time). */
const columnName = (r: { id: string; name: string; version: string }) =>
  r.id === 'workerd' ? `${runtimeName(r)} (process CPU)` : runtimeName(r)

/** Why a package in the table has no cell in a runtime, from its manifest: one line per package and reason. */
function absentLines(run: ResultsFile, rows: readonly Row[], claims: BlockContext['claims']): string[] {
  const byReason = new Map<string, string[]>()
  for (const name of [...new Set(rows.map((r) => r.candidate))].sort())
    for (const rt of run.environment.runtimes ?? []) {
      const claim = claims.get(name)
      const measured = rows.some((r) => r.candidate === name && r.runtime === rt.id)
      const why = claim && !measured ? whyNotIn(claim, rt.id) : undefined
      const key = `${name} not in {}: ${why}`
      if (why !== undefined) byReason.set(key, [...(byReason.get(key) ?? []), runtimeName(rt)])
    }
  return [...byReason].map(([key, names]) => key.replace('{}', names.join(', ')))
}

/**
 * A candidate's ratio to `against` in one runtime, in a few words; "baseline" where that runtime had no
 * `against` and divided the others by this candidate; blank where it ran but was divided by another
 * baseline (that comparison has its own line); a dash where it did not run.
 */
function cell(here: readonly Row[], candidate: string, against: string, runtime: string): string {
  const own = here.find((r) => r.candidate === candidate && r.runtime === runtime)
  if (!own) return '—'
  const q = own.ratios.find((r) => r.against === against)
  if (q && q.rounds.length > 0) return `${q.value.toFixed(2)}× ${verdictText(q)}`
  const againstRan = here.some((r) => r.candidate === against && r.runtime === runtime)
  return hasFlag(own, 'baseline') && !againstRan ? 'baseline' : ''
}

/** The lines of one setting: one per candidate and each baseline it was divided by in some runtime. */
function settingLines(here: readonly Row[], runtimes: readonly { id: string }[]): string[][] {
  const pairs = new Map<string, { row: Row; against: string }>()
  for (const row of here)
    for (const q of row.ratios) pairs.set(`${row.candidate}\u0000${q.against}`, { row, against: q.against })
  return [...pairs.values()].map(({ row, against }) => {
    const baseline = here.find((r) => r.candidate === against)
    return [
      `${row.group}: ${row.label} ÷ ${baseline?.label ?? against}`,
      ...runtimes.map((rt) => cell(here, row.candidate, against, rt.id)),
    ]
  })
}

/**
 * One table across runtimes from a `--runtime` run: a line per candidate at each headline setting, a
 * column per runtime, each cell the candidate's ratio to the line's baseline measured in the same
 * rounds of that runtime. Rows are found by key; labels only name them.
 */
export function runtimesFigures(ctx: BlockContext): string {
  const run = ctx.runs.at(-1) as ResultsFile
  const runtimes = run.environment.runtimes ?? []
  const rows = run.suites
    .flatMap((s) => s.rows)
    .filter((r) => r.runtime !== undefined && !hasFlag(r, 'control'))
  const lines = SETTINGS.flatMap(({ suite, setting }) =>
    settingLines(
      rows.filter((r) => r.suite === suite && r.key.setting === setting),
      runtimes,
    ),
  )
  const table = alignedTable(
    ['candidate ÷ baseline, same rounds', ...runtimes.map(columnName)],
    lines,
    () => false,
  )
  const absent = absentLines(run, rows, ctx.claims)
  const why =
    absent.length > 0
      ? [
          '',
          '"—": not run there; blank: it ran, divided by another baseline there (its own line). Where a package does not run, its own reason:',
          '',
          ...absent.map((l) => `- ${markdownText(l)}`),
        ]
      : []
  return [source(ctx), '', ...table, ...why].join('\n')
}
