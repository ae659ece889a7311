import type { Row, SuiteKey } from './types.js'

/**
 * What a row measures, as data: claims, README figures, `compare` and `spread` select rows by it, and
 * a display label (a setting's, a candidate's) can change without moving a figure to another row.
 */
export interface RowKey extends SuiteKey {
  readonly suite: string
  /** The candidate's stable id (package name, `ref:…`, `file:…`). */
  readonly candidate: string
  /** The runtime that measured it, when the run compared runtimes. */
  readonly runtime?: string
}

/** An algorithm at parameters, from the data (`bcrypt:cost=10`, `scrypt:ln=14,r=16,p=1`), never a label. */
export function settingKey(algorithm: string, params: Readonly<Record<string, unknown>>): string {
  const values = Object.entries(params).filter(([, v]) => typeof v === 'number' || typeof v === 'string')
  return `${algorithm}:${values.map(([k, v]) => `${k}=${v}`).join(',')}`
}

/** A row's whole key. */
export function keyOf(row: Row): RowKey {
  return {
    suite: row.suite,
    ...row.key,
    candidate: row.candidate,
    ...(row.runtime ? { runtime: row.runtime } : {}),
  }
}

/** One string per key, for maps: rows with equal keys are the same figure in two runs. */
export function keyText(row: Row): string {
  const { suite, setting, operation, candidate, runtime } = keyOf(row)
  return [suite, setting, operation, candidate, ...(runtime ? [runtime] : [])].join(' · ')
}

/** Whether `row` is the one `want` names (fields left out match any). */
export function matches(row: Row, want: Partial<RowKey>): boolean {
  const key = keyOf(row)
  return (Object.keys(want) as (keyof RowKey)[]).every((field) => key[field] === want[field])
}

/** An algorithm at parameters, read back from a setting key (`scrypt:ln=14,r=8,p=5`); undefined for `defaults`, `K=2`… */
export function parseSettingKey(
  setting: string,
): { readonly algorithm: string; readonly params: Readonly<Record<string, number>> } | undefined {
  const match = /^([a-z0-9-]+):((?:[a-z]+=\d+,?)+)$/i.exec(setting)
  if (!match) return undefined
  const params = Object.fromEntries(
    (match[2] as string)
      .split(',')
      .filter(Boolean)
      .map((pair) => pair.split('=') as [string, string])
      .map(([k, v]) => [k, Number(v)]),
  )
  return { algorithm: match[1] as string, params }
}

/** A setting's parameters as the hash suite's rows record them (`scrypt ln=14 r=8 p=5`): one spelling for lookups. */
export function paramsText(algorithm: string, params: Readonly<Record<string, number>>): string {
  return [algorithm, ...Object.entries(params).map(([k, v]) => `${k}=${v}`)].join(' ')
}
