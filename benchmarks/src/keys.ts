import type { Ratio, Row } from './types.js'

/**
 * What a row measures, as data: claims, README figures, `compare` and `spread` select rows by it, and
 * a display label (a setting's, a candidate's) can change without moving a figure to another row.
 */
export interface RowKey {
  readonly suite: string
  /** The parameters: `defaults`, an algorithm at parameters (`bcrypt:cost=10`), `K=2`, a framework. */
  readonly setting: string
  /** What was timed: `hash`, `verify`, `generate`, `request`, `login`; '' for a suite's one figure. */
  readonly operation: string
  /** The candidate's stable id (package name, `ref:…`, `file:…`). */
  readonly candidate: string
  /** The runtime that measured it, when the run compared runtimes. */
  readonly runtime?: string
}

/** A key as a suite states it: the harness adds the suite, the candidate and the runtime from the row. */
export type SuiteKey = Pick<RowKey, 'setting' | 'operation'>

/** An algorithm at parameters, from the data (`bcrypt:cost=10`, `scrypt:ln=14,r=16,p=1`), never a label. */
export function settingKey(algorithm: string, params: Readonly<Record<string, unknown>>): string {
  const values = Object.entries(params).filter(([, v]) => typeof v === 'number' || typeof v === 'string')
  return `${algorithm}:${values.map(([k, v]) => `${k}=${v}`).join(',')}`
}

/** Settings of the stretch suite: the rows of Mozilla's onepw table they reproduce. */
export const STRETCH_SETTINGS = {
  pbkdf2: 'onepw:[1]',
  chain: 'onepw:chain',
  remote: 'onepw:[2]-vs-[3]',
} as const

/** The login scenario's setting: a framework serving a hasher at parameters. */
export const loginSetting = (framework: string, setting: string) => `${framework}/${setting}`

/**
 * Results files written before rows carried keys named a setting only by its label: these are the
 * labels those files hold, mapped once to the keys the suites now write, so old and new runs compare.
 */
const LEGACY_SETTINGS: Readonly<Record<string, string>> = {
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

/** The baselines' labels in those files, mapped to the baselines' ids. */
const LEGACY_BASELINES: Readonly<Record<string, string>> = {
  'K=1, one hash alone in the same sequences': 'K=1',
  'the first single hash of each sequence': 'K=1:first',
  'PBKDF2-SHA256 (node:crypto)': '@authlab/hash-pbkdf2',
  'PBKDF2-SHA256 (WebCrypto)': '@authlab/hash-webcrypto',
  'argon2id (Rust)': '@authlab/hash-argon2',
  'argon2id (WASM)': '@authlab/hash-wasm',
  'argon2id (WASM) on workers': '@authlab/hash-worker',
  'bcrypt (native C)': '@authlab/hash-bcrypt',
  'bcrypt (pure JS)': '@authlab/hash-bcryptjs',
  'scrypt (node:crypto)': '@authlab/hash-scrypt',
  'scrypt (@noble/hashes, pure JS)': '@authlab/hash-noble',
  '[1] PBKDF2-SHA256 (node:crypto)': '@authlab/hash-pbkdf2',
  '[1] PBKDF2-SHA256 (WebCrypto)': '@authlab/hash-webcrypto',
  '[3] scrypt: scrypt (node:crypto)': '@authlab/stretch-onepw+@authlab/hash-scrypt',
  '[4] scrypt: scrypt (@noble/hashes, pure JS)': '@authlab/stretch-onepw+@authlab/hash-noble',
  "@fastify/session's default idGenerator [ref]": 'ref:fastify-session',
  "better-auth's session token, generateId(32) [ref]": 'ref:better-auth',
  "express-session's default genid [ref]": 'ref:express-session',
  'crypto.randomUUID() [ref; Auth.js, koa, hono]': 'ref:randomUUID',
  'flat 32-char string (INSECURE ceiling, no randomness)': 'ref:flat-string',
  'unique counter (INSECURE, http ceiling)': 'ref:counter',
  'cores ÷ single-hash time': 'limit',
  "cores less the health checks' share ÷ (single-hash time + the server's own work)": 'limit',
}

const setting = (label: string) => LEGACY_SETTINGS[label] ?? label

/** The key of a row written without one, from the group it was filed under. */
function legacyKey(row: Row): SuiteKey {
  const parts = row.group.split(' · ')
  const [first = '', second = '', third = ''] = parts
  switch (row.suite) {
    case 'hash':
      return { setting: setting(first), operation: second === 'verify' ? 'verify' : 'hash' }
    case 'ids':
      return { setting: 'defaults', operation: 'generate' }
    case 'lag':
      return { setting: 'defaults', operation: 'hash' }
    case 'concurrency':
      return { setting: first.replace(/ again \(A\/A control\)$/, ''), operation: 'hash' }
    case 'stretch':
      if (first.startsWith('[1]')) return { setting: STRETCH_SETTINGS.pbkdf2, operation: 'derive' }
      if (first.includes('wall time')) return { setting: STRETCH_SETTINGS.remote, operation: 'derive' }
      return { setting: STRETCH_SETTINGS.chain, operation: 'derive' }
    case 'ids-in-fastify':
    case 'http':
      if (first === 'login') return { setting: loginSetting(second, setting(third)), operation: 'login' }
      return { setting: second, operation: 'request' }
    default:
      return { setting: row.group, operation: '' }
  }
}

/** A row's key: its own, or for a row of an older results file, the one its group implies. */
export function keyOf(row: Row): RowKey {
  const { setting, operation } = row.key ?? legacyKey(row)
  return {
    suite: row.suite,
    setting,
    operation,
    candidate: row.candidate,
    ...(row.runtime ? { runtime: row.runtime } : {}),
  }
}

/** One string per key, for maps: rows with equal keys are the same figure in two runs. */
export function keyText(row: Row): string {
  const k = keyOf(row)
  return [k.suite, k.setting, k.operation, k.candidate, ...(k.runtime ? [k.runtime] : [])].join(' · ')
}

/** Whether `row` is the one `want` names (fields left out match any). */
export function matches(row: Row, want: Partial<RowKey>): boolean {
  const k = keyOf(row)
  return (Object.keys(want) as (keyof RowKey)[]).every((field) => k[field] === want[field])
}

/** The id of the baseline a ratio divides by: its own, or for an older file, the one its label names. */
export function againstOf(ratio: Ratio): string {
  return ratio.against ?? LEGACY_BASELINES[ratio.baseline] ?? ratio.baseline
}
