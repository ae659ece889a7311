import type { AdvisedSetting } from '../advice/floor.js'

/**
 * One need of the "which to use" table: what to use, why (a measured figure) and what it costs; a part
 * these runs did not measure is absent, and said so by the reporters.
 */
export interface AdviceRow {
  readonly need: string
  readonly use?: string
  readonly why?: string
  readonly cost?: string
  /** The hash settings the row tells a reader to use (not those it moves them off): each meets OWASP's floor. */
  readonly advises: readonly AdvisedSetting[]
}
