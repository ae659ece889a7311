import { registerAlgorithm } from './algorithms/registry.js'
import { boundKdf } from './bounded-kdf.js'
import { constantTimeEqual, passwordToBytes } from './encoding.js'
import { InvalidOptionError } from './errors.js'
import type { HasherDescription, KeyDerivation, Password, PasswordHasher } from './hash.js'
import {
  decodeKdfHash,
  encodeKdfHash,
  invalidParams,
  isWeaker,
  type KdfParams,
  type KdfProfile,
  MIN_HASH_BYTES,
  MIN_SALT_BYTES,
} from './kdf-format.js'
import { checkStoredWork, type LimitOverrides, limitSpecs, resolveLimits } from './limits.js'
import { checkOptions, type OptionSpecs } from './options.js'
import { checkPassword, type PasswordPolicy, POLICY_OPTION_SPECS, resolvePasswordPolicy } from './password.js'
import { DEFAULT_PHC_BOUNDS } from './phc.js'
import { runsOnHere } from './runtime.js'

/** The raw KDF a strategy wraps: bytes in, `length` bytes out, with explicit parameters. */
export type RawKdf = (
  password: Uint8Array,
  salt: Uint8Array,
  params: KdfParams,
  length: number,
) => Promise<Uint8Array>

/** Options every KDF-based hasher accepts next to its cost parameters. */
export interface KdfHasherOptions {
  /** Random salt bytes per hash (default 16: passlib's and OWASP's 128 bits; RFC 8018 §4.1 asks ≥ 8). */
  saltLength?: number
  /** Derived bytes stored per hash (default 32, the SHA-256 output size). */
  keyLength?: number
  /**
   * Limits on what a stored hash may cost `verify`: a cap per cost parameter, and the work budget as
   * `units` (see the algorithm profile's `unit`) and `memoryBytes`. Defaults: the profile's, raised to
   * the configured parameters' own needs.
   */
  limits?: LimitOverrides
  /** Password policy overrides (default DEFAULT_PASSWORD_POLICY). */
  policy?: Partial<PasswordPolicy>
}

/** scrypt's cost parameters (RFC 7914); defaults are OWASP's N=2^17, r=8, p=1. */
export interface ScryptOptions extends KdfHasherOptions {
  /** log2 of the CPU/memory cost N (default 17). */
  ln?: number
  /** Block size (default 8). */
  r?: number
  /** Parallelization (default 1). */
  p?: number
}

/** The option of a hasher whose KDF holds its memory on the calling thread (see `maxConcurrent` below). */
export interface ConcurrencyBoundOptions {
  /** Most derivations in flight; one more fails at once with an OverloadError. */
  maxConcurrent?: number
}

/** argon2id's cost parameters (RFC 9106); defaults are OWASP's m=19456 KiB, t=2, p=1. */
export interface Argon2idOptions extends KdfHasherOptions {
  /** Memory in KiB (default 19456 = 19 MiB). */
  m?: number
  /** Passes over memory (default 2). */
  t?: number
  /** Lanes (default 1). Part of the hash: changing it changes the output. */
  p?: number
}

/** PBKDF2's cost parameter (RFC 8018 §5.2); default OWASP's count for the digest (SHA-256: 600,000). */
export interface Pbkdf2Options extends KdfHasherOptions {
  iterations?: number
}

/** Everything a KDF strategy package supplies: the algorithm, who it is, the function it wraps, the user's options. */
export interface KdfHasherDefinition {
  readonly algorithm: KdfProfile
  readonly describe: HasherDescription
  readonly kdf: RawKdf
  /** The caller's options as given (checked here: unknown keys and wrong types are InvalidOptionError). */
  readonly options: unknown
  /** Keys the strategy itself reads before calling the definer (hash-wasm's `algorithm`); checked, not used. */
  readonly strategyOptions?: OptionSpecs
  /**
   * For a KDF that holds its whole working memory on the calling thread until it ends (pure JS,
   * scrypt's 128·N·r bytes of V, RFC 7914 §5): the default of the `maxConcurrent` option, the most
   * derivations in flight. One more is refused at once with an OverloadError, before it allocates,
   * and a finished derivation's slot frees only after a full collection (see `boundKdf`), so memory
   * stays at `maxConcurrent` derivations whatever the number of concurrent logins.
   */
  readonly maxConcurrent?: number
}

/** Highest `maxConcurrent` accepted: far above any useful number of derivations sharing one thread. */
const MAX_CONCURRENT_LIMIT = 1024

/** Both interfaces at once: a KDF-based hasher is also the KeyDerivation a stretching chain composes. */
export interface KdfHasher extends PasswordHasher, KeyDerivation {
  readonly policy: PasswordPolicy
}

const MAX_DERIVE_BYTES = 1024

/** The option keys of a KDF hasher of `profile`: its cost parameters and the shared ones. */
export function kdfOptionSpecs(profile: KdfProfile): OptionSpecs {
  return {
    ...profile.params,
    saltLength: { type: 'integer', min: MIN_SALT_BYTES, max: DEFAULT_PHC_BOUNDS.maxSaltBytes },
    keyLength: { type: 'integer', min: MIN_HASH_BYTES, max: DEFAULT_PHC_BOUNDS.maxHashBytes },
    limits: { type: 'object', keys: limitSpecs(profile) },
    policy: { type: 'object', keys: POLICY_OPTION_SPECS },
  }
}

/**
 * Builds a PHC-string password hasher around a raw KDF: options checked strictly against the
 * algorithm's profile, random salt from the platform CSPRNG (`crypto.getRandomValues`, so the same
 * code runs in browsers), caps and work budget checked before any work, constant-time comparison,
 * and `needsRehash` against the configured parameters.
 */
export function defineKdfHasher(definition: KdfHasherDefinition): KdfHasher {
  const { algorithm: profile, describe, maxConcurrent: defaultMaxConcurrent } = definition
  registerAlgorithm(profile)
  const boundOption: OptionSpecs =
    defaultMaxConcurrent === undefined
      ? {}
      : { maxConcurrent: { type: 'integer', min: 1, max: MAX_CONCURRENT_LIMIT } }
  const options = checkOptions(
    describe.name,
    definition.options,
    { ...kdfOptionSpecs(profile), ...definition.strategyOptions, ...boundOption },
    profile.aliases,
  ) as KdfHasherOptions & Record<string, number>
  const maxConcurrent = options.maxConcurrent ?? defaultMaxConcurrent
  const kdf =
    maxConcurrent === undefined ? definition.kdf : boundKdf(definition.kdf, maxConcurrent, describe.name)
  const params: KdfParams = Object.freeze(
    Object.fromEntries(Object.entries(profile.defaults).map(([key, value]) => [key, options[key] ?? value])),
  )
  const problem = invalidParams(profile, params)
  if (problem) throw new InvalidOptionError(`${describe.name}: ${problem}`)
  const saltLength = options.saltLength ?? 16
  const keyLength = options.keyLength ?? 32
  const limits = resolveLimits(profile, params, keyLength, options.limits)
  const policy = resolvePasswordPolicy(options.policy)

  return Object.freeze({
    info: Object.freeze({
      ...describe,
      runsOn: runsOnHere(describe.runsOn),
      algorithm: profile.id,
      params,
      ...(maxConcurrent === undefined ? {} : { maxConcurrent }),
    }),
    policy,
    async hash(password: Password): Promise<string> {
      const bytes = checkPassword(password, policy)
      const salt = crypto.getRandomValues(new Uint8Array(saltLength))
      return encodeKdfHash(profile, params, salt, await kdf(bytes, salt, params, keyLength))
    },
    async verify(encoded: string, password: Password): Promise<boolean> {
      const stored = decodeKdfHash(profile, encoded)
      checkStoredWork(profile, stored.params, stored.hash.length, limits)
      const bytes = checkPassword(password, policy)
      return constantTimeEqual(await kdf(bytes, stored.salt, stored.params, stored.hash.length), stored.hash)
    },
    needsRehash(encoded: string): boolean {
      // Another algorithm is replaced at the next successful login. A malformed hash throws. A
      // well-formed one never does, over-cap or over-budget included: its parameters are only compared
      // (a rehash never lowers a cost); whether it may be verified is for verify to say.
      if (typeof encoded === 'string' && !encoded.startsWith(`$${profile.id}$`)) return true
      const stored = decodeKdfHash(profile, encoded)
      return (
        isWeaker(profile, stored.params, params) ||
        stored.salt.length < saltLength ||
        stored.hash.length < keyLength
      )
    },
    async derive(password: Password, salt: Password, length: number): Promise<Uint8Array> {
      const { minSaltBytes, minLength } = profile.deriveLimits ?? { minSaltBytes: 0, minLength: 1 }
      if (!Number.isSafeInteger(length) || length < minLength || length > MAX_DERIVE_BYTES) {
        throw new InvalidOptionError(
          `${describe.name}: length must be an integer from ${minLength} to ${MAX_DERIVE_BYTES}, got ${String(length)}`,
        )
      }
      const saltBytes = passwordToBytes(salt)
      if (saltBytes.length < minSaltBytes) {
        throw new InvalidOptionError(
          `${describe.name}: ${profile.id} needs a salt of at least ${minSaltBytes} bytes, got ${saltBytes.length}`,
        )
      }
      return kdf(passwordToBytes(password), saltBytes, params, length)
    },
  })
}
