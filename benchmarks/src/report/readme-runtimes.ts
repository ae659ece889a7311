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

/** A column's name; workerd's says its clock, the workerd process's CPU time (the others': wall time). */
function runtimeName(r: { id: string; name: string; version: string }): string {
  if (r.name === 'node') return `Node ${r.version}`
  const name = `${r.name[0]?.toUpperCase()}${r.name.slice(1)} ${r.version}`
  return r.id === 'workerd' ? `${name} (process CPU)` : name
}

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
export function runtimesFigures(ctx: BlockContext): string {
  const run = ctx.runs.at(-1) as ResultsFile
  const runtimes = run.environment.runtimes ?? []
  const rows = run.suites
    .flatMap((s) => s.rows)
    .filter((r) => r.runtime !== undefined && !hasFlag(r, 'control'))
  const lines: string[][] = []
  for (const { suite, setting } of SETTINGS) {
    const here = rows.filter((r) => r.suite === suite && r.key.setting === setting)
    for (const candidate of [...new Set(here.filter((r) => r.ratios.length > 0).map((r) => r.candidate))]) {
      const of = here.filter((r) => r.candidate === candidate)
      const first = of.find((r) => r.ratios[0]) as Row
      const q = first.ratios[0] as Row['ratios'][number]
      const baseline = here.find((r) => r.candidate === q.against)
      const what = `${first.group}: ${first.label} ÷ ${baseline?.label ?? q.baseline}`
      lines.push([what, ...runtimes.map((rt) => cell(of.find((r) => r.runtime === rt.id)))])
    }
  }
  const table = alignedTable(
    ['candidate ÷ baseline, same rounds', ...runtimes.map(runtimeName)],
    lines,
    () => false,
  )
  const absent = absentLines(run, rows, ctx.claims)
  const why =
    absent.length > 0
      ? [
          '',
          '"—": not run there; where the package says why:',
          '',
          ...absent.map((l) => `- ${markdownText(l)}`),
        ]
      : []
  return [source(ctx), '', ...table, ...why].join('\n')
}
