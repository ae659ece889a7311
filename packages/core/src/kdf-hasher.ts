import { constantTimeEqual, passwordToBytes } from './encoding.js'
import { InvalidOptionError } from './errors.js'
import type { KeyDerivation, Password, PasswordHasher, PasswordHasherInfo } from './hash.js'
import {
  checkKdfOptions,
  decodeKdfHash,
  encodeKdfHash,
  isWeaker,
  type KdfFormat,
  type KdfParams,
  MIN_HASH_BYTES,
  MIN_SALT_BYTES,
} from './kdf-format.js'
import { resolveCaps } from './limits.js'
import { checkPassword, type PasswordPolicy, resolvePasswordPolicy } from './password.js'
import { DEFAULT_PHC_BOUNDS } from './phc.js'

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
  /** Caps on stored parameters, on top of DEFAULT_PARAMETER_CAPS for the algorithm. */
  limits?: Partial<Record<string, number>>
  /** Password policy overrides (default DEFAULT_PASSWORD_POLICY). */
  policy?: Partial<PasswordPolicy>
}

export interface KdfHasherDefinition extends KdfHasherOptions {
  readonly format: KdfFormat
  /** Configured cost parameters (already merged with the strategy's defaults). */
  readonly params: KdfParams
  readonly describe: Omit<PasswordHasherInfo, 'algorithm' | 'params'>
  readonly kdf: RawKdf
}

/** Both interfaces at once: a KDF-based hasher is also the KeyDerivation a stretching chain composes. */
export interface KdfHasher extends PasswordHasher, KeyDerivation {
  readonly policy: PasswordPolicy
}

const MAX_DERIVE_BYTES = 1024

/**
 * Builds a PHC-string password hasher around a raw KDF: random salt from the platform CSPRNG
 * (`crypto.getRandomValues`, so the same code runs in browsers), caps checked before work,
 * constant-time comparison, and `needsRehash` against the configured parameters.
 */
export function defineKdfHasher(definition: KdfHasherDefinition): KdfHasher {
  const { format, kdf } = definition
  const params = Object.freeze({ ...definition.params })
  const caps = resolveCaps(format.algorithm, definition.limits)
  checkKdfOptions(format, params, caps)
  const policy = resolvePasswordPolicy(definition.policy)
  const saltLength = checkLength(
    'saltLength',
    definition.saltLength ?? 16,
    MIN_SALT_BYTES,
    DEFAULT_PHC_BOUNDS.maxSaltBytes,
  )
  const keyLength = checkLength(
    'keyLength',
    definition.keyLength ?? 32,
    MIN_HASH_BYTES,
    DEFAULT_PHC_BOUNDS.maxHashBytes,
  )
  const info: PasswordHasherInfo = Object.freeze({
    ...definition.describe,
    algorithm: format.algorithm,
    params,
  })

  return Object.freeze({
    info,
    policy,
    async hash(password: Password): Promise<string> {
      const bytes = checkPassword(password, policy)
      const salt = crypto.getRandomValues(new Uint8Array(saltLength))
      return encodeKdfHash(format, params, salt, await kdf(bytes, salt, params, keyLength))
    },
    async verify(encoded: string, password: Password): Promise<boolean> {
      const stored = decodeKdfHash(format, encoded, caps)
      const bytes = checkPassword(password, policy)
      return constantTimeEqual(await kdf(bytes, stored.salt, stored.params, stored.hash.length), stored.hash)
    },
    needsRehash(encoded: string): boolean {
      if (typeof encoded === 'string' && !encoded.startsWith(`$${format.algorithm}$`)) return true
      const stored = decodeKdfHash(format, encoded, caps)
      return (
        isWeaker(format, stored.params, params) ||
        stored.salt.length < saltLength ||
        stored.hash.length < keyLength
      )
    },
    async derive(password: Password, salt: Password, length: number): Promise<Uint8Array> {
      checkLength('length', length, 1, MAX_DERIVE_BYTES)
      return kdf(passwordToBytes(password), passwordToBytes(salt), params, length)
    },
  })
}

function checkLength(name: string, value: number, min: number, max: number): number {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new InvalidOptionError(`${name} must be an integer from ${min} to ${max}, got ${String(value)}`)
  }
  return value
}
