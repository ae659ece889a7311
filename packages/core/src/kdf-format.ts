import type { AlgorithmProfile, Params } from './algorithms/profile.js'
import { InvalidHashError } from './errors.js'
import { wrongHashFamily } from './hash-family.js'
import { formatPhc, parsePhc, phcDecimal } from './phc.js'

/** A KDF's cost parameters. */
export type KdfParams = Params

/**
 * How one KDF's PHC strings look beyond its parameter list. Part of the algorithm's profile, shared by
 * every package implementing it (hash-scrypt and hash-scrypt-js, hash-pbkdf2 and hash-webcrypto), so
 * their hashes are interchangeable by construction.
 */
export interface PhcLayout {
  /** The `v=` field the algorithm requires (argon2: 19), or none. */
  readonly version?: number
  /** Validity beyond per-parameter minimums; returns the problem, or undefined. */
  readonly invalid?: (params: KdfParams) => string | undefined
  /** Parameters may come in any order when parsing (writing always uses the profile's order). */
  readonly anyParamOrder?: boolean
  /** A second accepted encoding (passlib's pbkdf2 modular crypt form); undefined when not matching. */
  readonly parseLegacy?: (encoded: string) => DecodedKdfHash | undefined
}

/** The profile of an algorithm stored as a PHC string. */
export interface KdfProfile extends AlgorithmProfile {
  readonly phc: PhcLayout
}

export interface DecodedKdfHash {
  readonly params: KdfParams
  readonly salt: Uint8Array
  readonly hash: Uint8Array
}

/** RFC 8018 §4.1: salts of at least 64 bits; a shorter stored hash than 128 bits is a truncation. */
export const MIN_SALT_BYTES = 8
export const MIN_HASH_BYTES = 16

const phcNames = (profile: KdfProfile) =>
  Object.entries(profile.params).map(([key, spec]) => [key, spec.phcName ?? key] as const)

export function encodeKdfHash(
  profile: KdfProfile,
  params: KdfParams,
  salt: Uint8Array,
  hash: Uint8Array,
): string {
  const phcParams: Record<string, number> = {}
  for (const [key, phcName] of phcNames(profile)) phcParams[phcName] = params[key] as number
  const { version } = profile.phc
  return formatPhc({
    id: profile.id,
    ...(version === undefined ? {} : { version }),
    params: phcParams,
    salt,
    hash,
  })
}

/**
 * Parses a stored hash: InvalidHashError for anything malformed or of another algorithm. Its cost is
 * checked separately (checkStoredWork), before anything expensive happens.
 */
export function decodeKdfHash(profile: KdfProfile, encoded: string): DecodedKdfHash {
  const decoded = profile.phc.parseLegacy?.(encoded) ?? decodePhcForm(profile, encoded)
  if (decoded.salt.length < MIN_SALT_BYTES)
    throw new InvalidHashError(`salt shorter than ${MIN_SALT_BYTES} bytes`)
  if (decoded.hash.length < MIN_HASH_BYTES)
    throw new InvalidHashError(`hash shorter than ${MIN_HASH_BYTES} bytes`)
  const problem = invalidParams(profile, decoded.params)
  if (problem) throw new InvalidHashError(problem)
  return decoded
}

function decodePhcForm(profile: KdfProfile, encoded: string): DecodedKdfHash {
  if (typeof encoded === 'string' && !encoded.startsWith(`$${profile.id}$`)) {
    throw wrongHashFamily(profile.id, encoded)
  }
  const phc = parsePhc(encoded)
  if (phc.version !== profile.phc.version) {
    throw new InvalidHashError(`unsupported ${profile.id} version ${phc.version ?? '(none)'}`)
  }
  const names = Object.keys(phc.params)
  const expected = phcNames(profile)
  const misplaced = ([, phcName]: readonly [string, string], i: number) =>
    profile.phc.anyParamOrder ? !names.includes(phcName) : names[i] !== phcName
  if (names.length !== expected.length || expected.some(misplaced)) {
    throw new InvalidHashError(
      `${profile.id} parameters must be exactly ${expected.map(([, name]) => name).join(',')}, got ${names.join(',')}`,
    )
  }
  if (!phc.salt || !phc.hash) throw new InvalidHashError('salt or hash missing')
  const params: Record<string, number> = {}
  for (const [key, phcName] of expected) params[key] = phcDecimal(phc.params[phcName], phcName)
  return { params, salt: phc.salt, hash: phc.hash }
}

/** The first parameter below its minimum (or an algorithm-specific defect), or undefined. */
export function invalidParams(
  profile: AlgorithmProfile & { phc?: PhcLayout },
  params: KdfParams,
): string | undefined {
  for (const [key, { min }] of Object.entries(profile.params)) {
    const value = params[key]
    if (!Number.isSafeInteger(value) || (value as number) < min) {
      return `${profile.id} ${key} must be an integer ≥ ${min}, got ${String(value)}`
    }
  }
  return profile.phc?.invalid?.(params)
}

/** True when any stored parameter is below the configured one (a rehash never lowers a cost). */
export function isWeaker(profile: AlgorithmProfile, stored: KdfParams, configured: KdfParams): boolean {
  return Object.keys(profile.params).some((key) => (stored[key] as number) < (configured[key] as number))
}
