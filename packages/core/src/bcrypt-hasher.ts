import { BCRYPT, BCRYPT_SALT_BYTES, formatBcryptHash, parseBcryptHash } from './algorithms/bcrypt.js'
import { constantTimeEqual } from './encoding.js'
import { InvalidHashError } from './errors.js'
import type { HasherDescription, PasswordHasher } from './hash.js'
import { checkStoredWork, type LimitOverrides, limitSpecs, resolveLimits } from './limits.js'
import { checkOptions, type OptionSpecs } from './options.js'
import {
  BCRYPT_PASSWORD_POLICY,
  checkPassword,
  type PasswordPolicy,
  POLICY_OPTION_SPECS,
  resolvePasswordPolicy,
} from './password.js'
import { runsOnHere } from './runtime.js'

const BCRYPT_PREFIX = /^\$2[aby]\$/
const CHECKSUM_BYTES = 23

export interface BcryptOptions {
  /** log2 of the key-schedule rounds (default 10, OWASP Password Storage Cheat Sheet: 10 or more). */
  cost?: number
  /**
   * What a stored hash may cost `verify` (default: cost 14, or the configured cost if higher); above it
   * ParameterLimitError. `limits.cost` raises or lowers it.
   */
  limits?: LimitOverrides
  /** May lower bcrypt's 72-byte ceiling, never raise it nor admit NUL bytes (see BCRYPT_PASSWORD_POLICY). */
  policy?: Partial<PasswordPolicy>
}

/**
 * The one thing that differs between bcrypt libraries: running bcrypt on already-checked password bytes
 * with a given cost and 16-byte salt, returning the library's 60-character modular crypt string
 * (whichever of `2a`/`2b` it writes: they agree on every password the policy admits).
 */
export type BcryptEngine = (password: Uint8Array, cost: number, salt: Uint8Array) => Promise<string>

export interface BcryptHasherDefinition {
  readonly describe: HasherDescription
  readonly engine: BcryptEngine
  /** The caller's options as given (checked here: unknown keys and wrong types are InvalidOptionError). */
  readonly options: unknown
  /** Keys the strategy itself reads before calling the definer (hash-wasm's `algorithm`); checked, not used. */
  readonly strategyOptions?: OptionSpecs
}

/** The option keys of a bcrypt hasher. */
export const BCRYPT_OPTION_SPECS: OptionSpecs = Object.freeze({
  ...BCRYPT.params,
  limits: { type: 'object', keys: limitSpecs(BCRYPT) },
  policy: { type: 'object', keys: POLICY_OPTION_SPECS },
})

/**
 * A PasswordHasher around a bcrypt engine, so the options check, the policy, the hostile-hash checks,
 * the `$2b$` output and the constant-time comparison are the same code in every authlab bcrypt
 * package. Verification recomputes the checksum with the stored cost and salt and compares it here,
 * so every package compares the same way instead of each library's own compare deciding.
 */
export function defineBcryptHasher({
  describe,
  engine,
  options,
  strategyOptions,
}: BcryptHasherDefinition): PasswordHasher {
  const checked = checkOptions(
    describe.name,
    options,
    { ...BCRYPT_OPTION_SPECS, ...strategyOptions },
    BCRYPT.aliases,
  ) as BcryptOptions
  const cost = checked.cost ?? (BCRYPT.defaults.cost as number)
  const limits = resolveLimits(BCRYPT, { cost }, CHECKSUM_BYTES, checked.limits)
  const policy = resolvePasswordPolicy(checked.policy, BCRYPT_PASSWORD_POLICY, BCRYPT_PASSWORD_POLICY)

  const checksumOf = async (password: Uint8Array, storedCost: number, salt: Uint8Array) => {
    const computed = parseBcryptHash(await engine(password, storedCost, salt))
    // A library that ignored the cost or salt we passed would make every verify fail open or closed.
    if (computed.cost !== storedCost || !constantTimeEqual(computed.salt, salt)) {
      throw new InvalidHashError(`${describe.name}: the bcrypt library returned a hash for other parameters`)
    }
    return computed.checksum
  }

  const hasher: PasswordHasher = {
    info: Object.freeze({
      ...describe,
      runsOn: runsOnHere(describe.runsOn),
      algorithm: BCRYPT.id,
      params: Object.freeze({ cost }),
    }),
    async hash(password) {
      const bytes = checkPassword(password, policy)
      const salt = crypto.getRandomValues(new Uint8Array(BCRYPT_SALT_BYTES))
      return formatBcryptHash(cost, salt, await checksumOf(bytes, cost, salt))
    },
    async verify(encoded, password) {
      const stored = parseBcryptHash(encoded)
      checkStoredWork(BCRYPT, { cost: stored.cost }, CHECKSUM_BYTES, limits)
      const bytes = checkPassword(password, policy)
      return constantTimeEqual(await checksumOf(bytes, stored.cost, stored.salt), stored.checksum)
    },
    needsRehash(encoded) {
      // Another algorithm (or crypt_blowfish's buggy `2x`) is replaced on the next successful login, as
      // in defineKdfHasher; a malformed bcrypt string throws, and an over-limit cost is stronger than
      // the configured one, not weaker (verify refuses it).
      if (typeof encoded === 'string' && !BCRYPT_PREFIX.test(encoded)) return true
      return parseBcryptHash(encoded).cost < cost
    },
  }
  return Object.freeze(hasher)
}
