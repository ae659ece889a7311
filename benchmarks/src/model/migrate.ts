/**
 * The one place that reads display labels: results files of format 2 (committed runs the READMEs cite)
 * filed rows under labels and flags as sentences. Each is turned into the current format once, here,
 * when it is read; no other code looks a row up by a label or a flag by its words.
 */
import type { Flag, Ratio, ResultsFile, Row, SuiteKey, SuiteRecord } from './types.js'
import { RESULTS_FORMAT } from './types.js'

/** The labels format-2 files gave a setting, mapped to the keys the suites now write. */
const SETTINGS: Readonly<Record<string, string>> = {
  defaults: 'defaults',
  'bcrypt cost 10': 'bcrypt:cost=10',
  'bcrypt cost 12': 'bcrypt:cost=12',
  'argon2id OWASP m=19456 t=2 p=1': 'argon2id:m=19456,t=2,p=1',
  'argon2id node-argon2 defaults m=65536 t=3 p=4': 'argon2id:m=65536,t=3,p=4',
  'PBKDF2-SHA256 600k': 'pbkdf2-sha256:iterations=600000',
  'scrypt better-auth N=2^14 r=16 p=1': 'scrypt:ln=14,r=16,p=1',
  'scrypt N=2^15 r=8 p=1': 'scrypt:ln=15,r=8,p=1',
  'scrypt N=2^16 r=8 p=1': 'scrypt:ln=16,r=8,p=1',
  'scrypt N=2^17 r=8 p=1': 'scrypt:ln=17,r=8,p=1',
}

/** Baselines that are no row of their group (a K=1 sequence, a limit), by the labels format 2 gave them. */
const BASELINES: Readonly<Record<string, string>> = {
  'K=1, one hash alone in the same sequences': 'K=1',
  'the first single hash of each sequence': 'K=1:first',
  'cores ÷ single-hash time': 'limit',
  "cores less the health checks' share ÷ (single-hash time + the server's own work)": 'limit',
  'single Redis': 'redis',
}

/** The comparisons a suite judges at a margin of its own (the suites now write it on the ratio). */
const MARGINS: readonly {
  readonly suites: readonly string[]
  readonly key: SuiteKey
  readonly against: string
  readonly candidate: string
}[] = [
  {
    suites: ['ids-in-fastify', 'http'],
    key: { setting: 'fastify', operation: 'request' },
    candidate: '@authlab/id-fast',
    against: 'ref:fastify-session',
  },
  {
    suites: ['stretch'],
    key: { setting: 'onepw:[1]', operation: 'derive' },
    candidate: '@authlab/hash-webcrypto',
    against: '@authlab/hash-pbkdf2',
  },
]
const MARGIN_PCT = 10

/** The suites whose every round ran in a fresh process, before files said so. */
const PROCESS_ROUND_SUITES = ['ids', 'ids-in-fastify', 'stores']

/** The key of a format-2 row written without one, from the group it was filed under. */
function legacyKey(suite: string, group: string): SuiteKey {
  const [first = '', second = '', third = ''] = group.split(' · ')
  const setting = (label: string) => SETTINGS[label] ?? label
  switch (suite) {
    case 'hash':
      return { setting: setting(first), operation: second === 'verify' ? 'verify' : 'hash' }
    case 'ids':
      return { setting: 'defaults', operation: 'generate' }
    case 'lag':
      return { setting: 'defaults', operation: 'hash' }
    case 'concurrency':
      return { setting: first.replace(/ again \(A\/A control\)$/, ''), operation: 'hash' }
    case 'stretch':
      if (first.startsWith('[1]')) return { setting: 'onepw:[1]', operation: 'derive' }
      if (first.includes('wall time')) return { setting: 'onepw:[2]-vs-[3]', operation: 'derive' }
      return { setting: 'onepw:chain', operation: 'derive' }
    case 'ids-in-fastify':
    case 'http':
      if (first === 'login') return { setting: `${second}/${setting(third)}`, operation: 'login' }
      return { setting: second, operation: 'request' }
    default:
      return { setting: group, operation: '' }
  }
}

/** A format-2 flag sentence as the flag it stated. */
function legacyFlag(text: string): Flag {
  if (text === 'baseline') return { kind: 'baseline' }
  if (text === 'A/A control') return { kind: 'control' }
  if (/^ceiling\b/.test(text)) return { kind: 'ceiling' }
  if (text === 'same measurement as defaults') return { kind: 'same-as-defaults' }
  if (text === 'same rounds as its CPU-time row') return { kind: 'shared-rounds' }
  if (/^no clean round/.test(text)) return { kind: 'no-figure' }
  if (/^runtimes ran one after another/.test(text)) return { kind: 'not-paired' }
  const limit = /^measurement error: above its limit ([\d.]+) \(([\d.]+)–([\d.]+)\)/.exec(text)
  if (limit)
    return { kind: 'above-limit', limit: Number(limit[1]), low: Number(limit[2]), high: Number(limit[3]) }
  const noisy = /^noisy: (\d+) retried/.exec(text)
  if (noisy) return { kind: 'noisy', retries: Number(noisy[1]) }
  const marked = /^(\d+) round\(s\) with errors/.exec(text)
  if (marked) return { kind: 'marked-rounds', rounds: Number(marked[1]) }
  const failed = /^failed: (.*)$/s.exec(text)
  if (failed) return { kind: 'failed', reason: failed[1] as string }
  return { kind: 'other', text }
}

interface V2Row extends Omit<Row, 'key' | 'flags' | 'ratios'> {
  readonly key?: SuiteKey
  readonly flags: readonly string[]
  readonly ratios: readonly (Omit<Ratio, 'against' | 'withheld' | 'verdict'> & {
    against?: string
    verdict: string
  })[]
}

/** A format-2 ratio: the id of its baseline from a row of its group with that label, else the table above. */
function migrateRatio(q: V2Row['ratios'][number], row: V2Row, group: readonly V2Row[], key: SuiteKey): Ratio {
  const against =
    q.against ??
    BASELINES[q.baseline] ??
    group.find((r) => r.label === q.baseline && r.runtime === row.runtime)?.candidate ??
    q.baseline
  const margin = MARGINS.some(
    (m) =>
      m.suites.includes(row.suite) &&
      m.candidate === row.candidate &&
      m.against === against &&
      m.key.setting === key.setting &&
      m.key.operation === key.operation,
  )
  const { baseline, value, low, high, rounds } = q
  // The verdict is judged again from the rounds on reading (src/stats/decide.ts).
  return {
    against,
    baseline,
    value,
    low,
    high,
    rounds,
    verdict: 'undecided',
    ...(margin ? { margin: MARGIN_PCT } : {}),
  }
}

function migrateRow(row: V2Row, suiteRows: readonly V2Row[]): Row {
  const key = row.key ?? legacyKey(row.suite, row.group)
  // Rows measured in another runtime carried it at the end of their group too.
  const group = row.runtime ? row.group.replace(new RegExp(` · ${row.runtime}$`), '') : row.group
  const sameGroup = suiteRows.filter((r) => r.group === row.group)
  // The concurrency suite's A/A control shared its candidate's id, and so its key, with that candidate's K=1 row.
  const sharedId =
    row.suite === 'concurrency' && row.flags.includes('A/A control') && !row.candidate.endsWith(' (A/A)')
  return {
    ...row,
    candidate: sharedId ? `${row.candidate} (A/A)` : row.candidate,
    group,
    key,
    flags: row.flags.map(legacyFlag),
    ratios: row.ratios.map((q) => migrateRatio(q, row, sameGroup, key)),
  }
}

/** A results file of format 2, validated by its schema, in the current format. */
export function migrate(file: unknown): ResultsFile {
  const old = file as Omit<ResultsFile, 'format' | 'suites'> & {
    suites: readonly (Omit<SuiteRecord, 'rows' | 'processRounds' | 'failures' | 'method'> & {
      method?: string
      rows: readonly V2Row[]
    })[]
  }
  return {
    ...old,
    format: RESULTS_FORMAT,
    suites: old.suites.map((suite) => ({
      name: suite.name,
      description: suite.description,
      method: suite.method ?? '',
      processRounds: PROCESS_ROUND_SUITES.includes(suite.name),
      notes: suite.notes,
      failures: [],
      rows: suite.rows.map((row) => migrateRow(row, suite.rows)),
    })),
  }
}
