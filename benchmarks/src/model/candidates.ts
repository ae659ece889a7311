import type { IdGenerator, KeyDerivation, PasswordHasher, Stretcher } from '@authlab/core'

/** Where a candidate comes from, so a measuring child process can rebuild it by id. */
export type CandidateSource =
  | { readonly kind: 'reference' }
  | { readonly kind: 'package'; readonly root: string }
  | { readonly kind: 'file'; readonly file: string }

/** Something an ids suite can measure: a package's generator, a user's module or a bench-only reference. */
export interface IdCandidate {
  /** Stable key across runs (package name, `ref:<name>` for references, `file:<name>` for modules). */
  readonly id: string
  readonly label: string
  readonly create: () => IdGenerator
  readonly source: CandidateSource
}

/** Something the hashing suites measure; `create` takes the package's own options. */
export interface HashCandidate {
  readonly id: string
  readonly label: string
  readonly create: (options?: Record<string, unknown>) => PasswordHasher
  /** The options that make it hash with `algorithm` at `params` as the package declares them; undefined: not implemented. */
  readonly optionsFor: (
    algorithm: string,
    params: Readonly<Record<string, number>>,
  ) => Record<string, unknown> | undefined
  readonly source: CandidateSource
  /**
   * The candidate this one is, at one of the bench's cost settings as its defaults: for the suites that
   * run defaults only (lag, concurrency). The hash suite times that setting in its own table, so it skips it.
   */
  readonly variantOf?: string
}

/** A key-stretching chain; `create` takes the `scrypt` step to use (how the stretch suite builds rows [2]–[4]). */
export interface StretchCandidate {
  readonly id: string
  readonly label: string
  readonly create: (options?: { readonly scrypt?: KeyDerivation }) => Stretcher
}

/** Everything the suites may run, after `--filter`; baselines are kept even when filtered out. */
export interface Candidates {
  readonly ids: readonly IdCandidate[]
  readonly hashers: readonly HashCandidate[]
  readonly stretch: readonly StretchCandidate[]
}

/** A package or reference that could not be used, with the reason (recorded, never silently dropped). */
export interface Skipped {
  readonly name: string
  readonly reason: string
}
