import type { Environment } from '@authlab/workspace'
import { readRegularFile } from '../files/regular.js'
import { MAX_RESULTS_BYTES } from './results.js'

/** What an older results file still says about itself, read leniently: enough to list it. */
export interface OldRun {
  readonly environment: Partial<Environment>
  readonly suites: readonly string[]
}

/**
 * Each field a listing shows, kept only when it has the type the current format gives it: an old or
 * crafted file (`"date": 5`) loses that field, never the whole listing.
 */
const FIELD_TYPES = {
  date: 'string',
  commit: 'string',
  dirty: 'boolean',
  cpu: 'string',
  cores: 'number',
  runtime: 'string',
  mode: 'string',
} as const

/** The listable parts of a file `readResults` refused, or undefined when it has none. */
export function readOldRun(file: string): OldRun | undefined {
  let data: unknown
  try {
    data = JSON.parse(readRegularFile(file, MAX_RESULTS_BYTES))
  } catch {
    return undefined
  }
  if (typeof data !== 'object' || data === null) return undefined
  const { environment: raw, suites: rawSuites } = data as { environment?: unknown; suites?: unknown }
  if (typeof raw !== 'object' || raw === null) return undefined
  const given = raw as Record<string, unknown>
  const environment: Record<string, unknown> = {}
  for (const [field, type] of Object.entries(FIELD_TYPES))
    if (typeof given[field] === type) environment[field] = given[field]
  const load = given.loadAverage
  if (Array.isArray(load) && load.every((n) => typeof n === 'number')) environment.loadAverage = load
  const names = Array.isArray(rawSuites) ? rawSuites.map((s) => (s as { name?: unknown } | null)?.name) : []
  const suites = names.filter((name): name is string => typeof name === 'string')
  return { environment: environment as Partial<Environment>, suites }
}
