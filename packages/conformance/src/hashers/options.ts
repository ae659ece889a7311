import { DEFAULT_PASSWORD_POLICY, type PasswordHasher, type PasswordPolicy } from '@authlab/core'
import type { EncodedVector, KdfVector } from './vectors.js'

export type CostParams = Readonly<Record<string, number>>

/** Time bounds (ms). They prove "no hang", they are not benchmarks: generous on a loaded 2-core box. */
export interface HasherBounds {
  /** A hostile encoded hash must be rejected within this (default 1000). */
  hostileMs: number
  /** A 1 MB password must be refused or hashed and verified within this (default 10 000). */
  oversizedMs: number
  /** The runs-on check needs one hash at `blockingParams` to take at least this long (default 150). */
  minBlockingHashMs: number
}

export const DEFAULT_BOUNDS: HasherBounds = { hostileMs: 1000, oversizedMs: 10_000, minBlockingHashMs: 150 }

export interface HasherCheckOptions {
  /**
   * Returns a fresh hasher configured with these cost parameters (keys as in `info.params`, e.g.
   * `{ ln, r, p }` for scrypt); without an argument, with the strategy's defaults.
   */
  factory: (params?: CostParams) => PasswordHasher
  /** Cheap parameters for the functional checks, so the suite stays fast (e.g. `{ ln: 10, r: 8, p: 1 }`). */
  cheapParams: CostParams
  /**
   * Parameters at least as strong as `cheapParams` in every key and stronger in at least one, still
   * cheap. `needsRehash` is checked key by key between the two.
   */
  strongerParams: CostParams
  /**
   * Parameters at which one hash takes ≥ `bounds.minBlockingHashMs` on the test machine, for the
   * runs-on check (default: the strategy's defaults). Too cheap a setting fails the check rather
   * than passing it vacuously.
   */
  blockingParams?: CostParams
  /** Encoded known-answer vectors every implementation of the algorithm must verify (see vectors.ts). */
  vectors?: readonly EncodedVector[]
  /** Raw-KDF vectors; requires the hasher to have `derive` (the KeyDerivation interface). */
  kdfVectors?: readonly KdfVector[]
  /**
   * Other hashers of the same format, configured with `cheapParams`: each must verify this hasher's
   * hashes and vice versa (e.g. hash-scrypt ↔ hash-scrypt-js, every bcrypt package with every other).
   */
  peers?: readonly PasswordHasher[]
  /**
   * The password policy the hasher declares (default DEFAULT_PASSWORD_POLICY from @authlab/core: empty
   * refused, ≤ 4096 bytes, NUL allowed; bcrypt packages declare BCRYPT_PASSWORD_POLICY). The suite checks
   * the hasher enforces exactly this, with PasswordPolicyError and never by silent truncation.
   */
  passwordPolicy?: PasswordPolicy
  /**
   * Over-cap variants of a genuine encoded hash, each of which `verify` must refuse with
   * ParameterLimitError. Built in for bcrypt, scrypt, argon2id and pbkdf2-sha256; required for any
   * other `info.algorithm`.
   */
  absurdParams?: (genuine: string) => readonly { label: string; encoded: string }[]
  bounds?: Partial<HasherBounds>
}

export interface ResolvedHasherCheckOptions
  extends Required<
    Omit<HasherCheckOptions, 'bounds' | 'blockingParams' | 'passwordPolicy' | 'absurdParams'>
  > {
  blockingParams: CostParams | undefined
  absurdParams: HasherCheckOptions['absurdParams']
  passwordPolicy: PasswordPolicy
  bounds: HasherBounds
}

export function resolveHasherOptions(options: HasherCheckOptions): ResolvedHasherCheckOptions {
  return {
    factory: options.factory,
    cheapParams: options.cheapParams,
    strongerParams: options.strongerParams,
    blockingParams: options.blockingParams,
    absurdParams: options.absurdParams,
    vectors: options.vectors ?? [],
    kdfVectors: options.kdfVectors ?? [],
    peers: options.peers ?? [],
    passwordPolicy: options.passwordPolicy ?? DEFAULT_PASSWORD_POLICY,
    bounds: { ...DEFAULT_BOUNDS, ...options.bounds },
  }
}
