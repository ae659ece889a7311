import { AB64_ALPHABET, decodeBase64 } from './encoding.js'
import { InvalidHashError, InvalidOptionError } from './errors.js'
import { checkCaps, type ParameterCaps } from './limits.js'
import { formatPhc, parsePhc, phcDecimal } from './phc.js'

export type KdfParams = Readonly<Record<string, number>>

/** One cost parameter: its key in options and `info.params`, its PHC name, its smallest valid value. */
export interface ParamRule {
  readonly key: string
  readonly phcName: string
  readonly min: number
}

/**
 * How one algorithm's PHC strings look and which parameter values are valid. Shared by every package
 * implementing the algorithm (hash-scrypt and hash-scrypt-js, hash-pbkdf2 and hash-webcrypto), so
 * their hashes are interchangeable by construction.
 */
export interface KdfFormat {
  /** PHC identifier, also `info.algorithm`. */
  readonly algorithm: string
  /** The `v=` field the algorithm requires (argon2: 19), or none. */
  readonly version?: number
  readonly rules: readonly ParamRule[]
  /** Validity beyond per-parameter minimums; returns the problem, or undefined. */
  readonly invalid?: (params: KdfParams) => string | undefined
  /** Derived quantities also checked against the caps (scrypt's memory). */
  readonly measures?: (params: KdfParams) => Record<string, number>
  /** Parameters may come in any order when parsing (writing always uses `rules` order). */
  readonly anyParamOrder?: boolean
  /** A second accepted encoding (passlib's pbkdf2 modular crypt form); undefined when not matching. */
  readonly parseLegacy?: (encoded: string) => DecodedKdfHash | undefined
}

export interface DecodedKdfHash {
  readonly params: KdfParams
  readonly salt: Uint8Array
  readonly hash: Uint8Array
}

/** RFC 8018 §4.1: salts of at least 64 bits; a shorter stored hash than 128 bits is a truncation. */
export const MIN_SALT_BYTES = 8
export const MIN_HASH_BYTES = 16

export function encodeKdfHash(
  format: KdfFormat,
  params: KdfParams,
  salt: Uint8Array,
  hash: Uint8Array,
): string {
  const phcParams: Record<string, number> = {}
  for (const rule of format.rules) phcParams[rule.phcName] = params[rule.key] as number
  return formatPhc({
    id: format.algorithm,
    ...(format.version === undefined ? {} : { version: format.version }),
    params: phcParams,
    salt,
    hash,
  })
}

/**
 * Parses a stored hash and checks it against the caps before anything expensive can happen:
 * InvalidHashError for anything malformed or of another algorithm, ParameterLimitError above the caps.
 */
export function decodeKdfHash(format: KdfFormat, encoded: string, caps: ParameterCaps): DecodedKdfHash {
  const decoded = format.parseLegacy?.(encoded) ?? decodePhcForm(format, encoded)
  if (decoded.salt.length < MIN_SALT_BYTES)
    throw new InvalidHashError(`salt shorter than ${MIN_SALT_BYTES} bytes`)
  if (decoded.hash.length < MIN_HASH_BYTES)
    throw new InvalidHashError(`hash shorter than ${MIN_HASH_BYTES} bytes`)
  const problem = invalidParams(format, decoded.params)
  if (problem) throw new InvalidHashError(problem)
  checkKdfCaps(format, decoded.params, caps)
  return decoded
}

function decodePhcForm(format: KdfFormat, encoded: string): DecodedKdfHash {
  const phc = parsePhc(encoded)
  if (phc.id !== format.algorithm) {
    throw new InvalidHashError(`expected a $${format.algorithm}$ hash, got $${phc.id}$`)
  }
  if (phc.version !== format.version) {
    throw new InvalidHashError(`unsupported ${format.algorithm} version ${phc.version ?? '(none)'}`)
  }
  const names = Object.keys(phc.params)
  const misplaced = (rule: ParamRule, i: number) =>
    format.anyParamOrder ? !names.includes(rule.phcName) : names[i] !== rule.phcName
  if (names.length !== format.rules.length || format.rules.some(misplaced)) {
    const expected = format.rules.map((rule) => rule.phcName).join(',')
    throw new InvalidHashError(
      `${format.algorithm} parameters must be exactly ${expected}, got ${names.join(',')}`,
    )
  }
  if (!phc.salt || !phc.hash) throw new InvalidHashError('salt or hash missing')
  const params: Record<string, number> = {}
  for (const rule of format.rules) params[rule.key] = phcDecimal(phc.params[rule.phcName], rule.phcName)
  return { params, salt: phc.salt, hash: phc.hash }
}

function invalidParams(format: KdfFormat, params: KdfParams): string | undefined {
  for (const { key, min } of format.rules) {
    const value = params[key]
    if (!Number.isSafeInteger(value) || (value as number) < min) {
      return `${format.algorithm} ${key} must be an integer ≥ ${min}, got ${String(value)}`
    }
  }
  return format.invalid?.(params)
}

function checkKdfCaps(format: KdfFormat, params: KdfParams, caps: ParameterCaps): void {
  checkCaps(format.algorithm, { ...params, ...format.measures?.(params) }, caps)
}

/**
 * Validates configured parameters (options), with the option's own error type: a value above the cap
 * is a configuration mistake, reported as InvalidOptionError asking to raise the cap too.
 */
export function checkKdfOptions(format: KdfFormat, params: KdfParams, caps: ParameterCaps): void {
  const unknown = Object.keys(params).filter((key) => !format.rules.some((rule) => rule.key === key))
  if (unknown.length)
    throw new InvalidOptionError(`unknown ${format.algorithm} parameter(s): ${unknown.join(', ')}`)
  const problem = invalidParams(format, params)
  if (problem) throw new InvalidOptionError(problem)
  try {
    checkKdfCaps(format, params, caps)
  } catch (error) {
    throw new InvalidOptionError(`configured ${(error as Error).message}`, { cause: error })
  }
}

/** True when any stored parameter is below the configured one (a rehash never lowers a cost). */
export function isWeaker(format: KdfFormat, stored: KdfParams, configured: KdfParams): boolean {
  return format.rules.some(({ key }) => (stored[key] as number) < (configured[key] as number))
}

/** scrypt as passlib writes it: `$scrypt$ln=17,r=8,p=1$<salt>$<hash>` (passlib.handlers.scrypt). */
export const SCRYPT_FORMAT: KdfFormat = Object.freeze({
  algorithm: 'scrypt',
  rules: [
    { key: 'ln', phcName: 'ln', min: 1 },
    { key: 'r', phcName: 'r', min: 1 },
    { key: 'p', phcName: 'p', min: 1 },
  ],
  // RFC 7914 §2: p ≤ (2^32 − 1)·hLen / MFLen, i.e. r·p < 2^30.
  invalid: (params: KdfParams) =>
    (params.r as number) * (params.p as number) >= 2 ** 30
      ? 'scrypt needs r·p < 2^30 (RFC 7914 §2)'
      : undefined,
  // RFC 7914 §5 (scryptROMix): the V array is N blocks of 128·r bytes.
  measures: (params: KdfParams) => ({ memoryBytes: 128 * 2 ** (params.ln as number) * (params.r as number) }),
})

// passlib's pbkdf2_sha256 modular crypt form: `$pbkdf2-sha256$<rounds>$<ab64 salt>$<ab64 checksum>`.
const PASSLIB_PBKDF2 = /^\$pbkdf2-sha256\$([0-9]{1,16})\$([A-Za-z0-9./]{1,88})\$([A-Za-z0-9./]{1,172})$/

/**
 * PBKDF2-HMAC-SHA256 (RFC 8018 §5.2). Written as a PHC string, `$pbkdf2-sha256$i=600000$<salt>$<hash>`
 * in standard base64 (the form of @phc/pbkdf2 and the PHC spec's naming). Also read: passlib's form
 * `$pbkdf2-sha256$600000$<ab64>$<ab64>`, so hashes migrated from a passlib/Django-era Python stack verify.
 */
export const PBKDF2_SHA256_FORMAT: KdfFormat = Object.freeze({
  algorithm: 'pbkdf2-sha256',
  rules: [{ key: 'iterations', phcName: 'i', min: 1 }],
  parseLegacy(encoded: string): DecodedKdfHash | undefined {
    const match = typeof encoded === 'string' ? PASSLIB_PBKDF2.exec(encoded) : null
    if (!match) return undefined
    const [, rounds, salt, hash] = match as unknown as [string, string, string, string]
    return {
      params: { iterations: phcDecimal(rounds, 'rounds') },
      salt: decodeBase64(salt, AB64_ALPHABET, 'salt'),
      hash: decodeBase64(hash, AB64_ALPHABET, 'hash'),
    }
  },
})

/** argon2id as the reference implementation and its bindings write it: `$argon2id$v=19$m=,t=,p=$salt$hash`. */
export const ARGON2ID_FORMAT: KdfFormat = Object.freeze({
  algorithm: 'argon2id',
  version: 19,
  // The `argon2` npm package (node-argon2, via @phc/format) writes `m=,p=,t=`: its hashes must verify.
  anyParamOrder: true,
  rules: [
    { key: 'm', phcName: 'm', min: 8 },
    { key: 't', phcName: 't', min: 1 },
    { key: 'p', phcName: 'p', min: 1 },
  ],
  // RFC 9106 §3.1: memory size m ≥ 8·p KiB; p ≤ 2^24 − 1.
  invalid: (params: KdfParams) =>
    (params.m as number) < 8 * (params.p as number) ? 'argon2 needs m ≥ 8·p (RFC 9106 §3.1)' : undefined,
})
