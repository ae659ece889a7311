import type { Framework } from '@authlab/servers'

/** What one server process runs: candidates named by id, rebuilt by the process's own discovery. */
export interface ServerSpec {
  readonly framework: Framework
  /** An ids candidate id: a package name or a bench reference such as `ref:counter`. */
  readonly generator: string
  /** A hash candidate id and the cost setting (COST_SETTINGS label) it runs at; default: its defaults. */
  readonly hasher: string
  readonly setting?: string
}

/** The account every login server holds, with BENCH_PASSWORD. */
export const BENCH_USER = 'bench'
