import {
  type AlgorithmProfile,
  DEFAULT_PASSWORD_POLICY,
  findAlgorithm,
  InvalidOptionError,
  type PasswordHasher,
  type PasswordPolicy,
} from '@authlab/core'
import { type EncodedVector, type KdfVector, VECTOR_SETS } from './vectors.js'

export type CostParams = Readonly<Record<string, number>>

/** Time bounds (ms). They prove "no hang", they are not benchmarks: generous on a loaded 2-core box. */
export interface HasherBounds {
  /** A hostile encoded hash must be rejected within this (default 1000). */
  hostileMs: number
  /** A 1 MB password must be refused or hashed and verified within this (default 10 000). */
  oversizedMs: number
  /** The runs-on check samples at least this long of hashing at `blockingParams` (default 150; up to 4 hashes back to back). */
  minBlockingHashMs: number
}

export const DEFAULT_BOUNDS: HasherBounds = { hostileMs: 1000, oversizedMs: 10_000, minBlockingHashMs: 150 }

export interface HasherCheckOptions {
  /**
   * Returns a fresh hasher configured with these cost parameters (keys as in `info.params`, e.g.
   * `{ ln, r, p }` for scrypt); without an argument, with the strategy's defaults.
   */
  factory: (params?: CostParams) => PasswordHasher
  /**
   * The algorithm's profile (default: the one registered for the hasher's `info.algorithm`). Every
   * option below marked "default: the profile's" comes from it.
   */
  profile?: AlgorithmProfile
  /** Cheap parameters for the functional checks, so the suite stays fast (default: the profile's). */
  cheapParams?: CostParams
  /**
   * Parameters at least as strong as `cheapParams` in every key and stronger in at least one, still
   * cheap (default: the profile's). `needsRehash` is checked key by key between the two.
   */
  strongerParams?: CostParams
  /**
   * Parameters at which one hash takes about `bounds.minBlockingHashMs` or more, for the runs-on check
   * (default: the strategy's defaults). Too cheap a setting (4 hashes shorter than the bound) fails
   * the check rather than passing it vacuously.
   */
  blockingParams?: CostParams
  /** Encoded known-answer vectors every implementation must verify (default: the profile's set, see vectors.ts). */
  vectors?: readonly EncodedVector[]
  /** Raw-KDF vectors (default: the profile's set when the hasher has `derive`, the KeyDerivation interface). */
  kdfVectors?: readonly KdfVector[]
  /**
   * Other hashers of the same format, configured with `cheapParams`: each must verify this hasher's
   * hashes and vice versa (e.g. hash-scrypt ↔ hash-scrypt-js, every bcrypt package with every other).
   */
  peers?: readonly PasswordHasher[]
  /**
   * The password policy the hasher declares (default: the profile's, else DEFAULT_PASSWORD_POLICY from
   * @authlab/core: empty refused, ≤ 4096 bytes, NUL allowed; bcrypt's profile has BCRYPT_PASSWORD_POLICY).
   * The suite checks the hasher enforces exactly this, with PasswordPolicyError and never by silent truncation.
   */
  passwordPolicy?: PasswordPolicy
  /**
   * Over-cap variants of a genuine encoded hash, each of which `verify` must refuse with
   * ParameterLimitError (default: the profile's `absurd` cases; required without a profile).
   */
  absurdParams?: (genuine: string) => readonly { label: string; encoded: string }[]
  bounds?: Partial<HasherBounds>
}

export interface ResolvedHasherCheckOptions
  extends Required<
    Omit<
      HasherCheckOptions,
      | 'bounds'
      | 'blockingParams'
      | 'passwordPolicy'
      | 'absurdParams'
      | 'profile'
      | 'cheapParams'
      | 'strongerParams'
    >
  > {
  cheapParams: CostParams
  strongerParams: CostParams
  blockingParams: CostParams | undefined
  absurdParams: HasherCheckOptions['absurdParams']
  passwordPolicy: PasswordPolicy
  bounds: HasherBounds
}

/** Fills every option the caller left out from the algorithm's profile. */
export function resolveHasherOptions(options: HasherCheckOptions): ResolvedHasherCheckOptions {
  const probe = options.factory(options.cheapParams)
  const profile = options.profile ?? findAlgorithm(probe.info.algorithm)
  const cheapParams = options.cheapParams ?? profile?.testParams.cheap
  const strongerParams = options.strongerParams ?? profile?.testParams.stronger
  if (!cheapParams || !strongerParams) {
    throw new InvalidOptionError(
      `no profile is registered for algorithm "${probe.info.algorithm}": pass profile, or cheapParams and strongerParams`,
    )
  }
  const set = <T>(name: string | undefined) =>
    name ? (VECTOR_SETS[name] as readonly T[] | undefined) : undefined
  const derives = typeof (probe as { derive?: unknown }).derive === 'function'
  return {
    factory: options.factory,
    cheapParams,
    strongerParams,
    blockingParams: options.blockingParams,
    absurdParams: options.absurdParams,
    vectors: options.vectors ?? set<EncodedVector>(profile?.vectors.encoded) ?? [],
    kdfVectors: options.kdfVectors ?? (derives ? set<KdfVector>(profile?.vectors.kdf) : undefined) ?? [],
    peers: options.peers ?? [],
    passwordPolicy: options.passwordPolicy ?? profile?.policy ?? DEFAULT_PASSWORD_POLICY,
    bounds: { ...DEFAULT_BOUNDS, ...options.bounds },
  }
}
