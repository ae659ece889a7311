import {
  BCRYPT_MAX_COST,
  BCRYPT_SALT_BYTES,
  checkBcryptCost,
  DEFAULT_BCRYPT_COST,
  DEFAULT_BCRYPT_COST_LIMIT,
  formatBcryptHash,
  parseBcryptHash,
} from './bcrypt-format.js'
import { constantTimeEqual } from './encoding.js'
import { InvalidHashError } from './errors.js'
import type { PasswordHasher, PasswordHasherInfo } from './hash.js'
import {
  BCRYPT_PASSWORD_POLICY,
  checkPassword,
  type PasswordPolicy,
  resolvePasswordPolicy,
} from './password.js'

const BCRYPT_PREFIX = /^\$2[aby]\$/

export interface BcryptOptions {
  /** log2 of the key-schedule rounds (default 10, OWASP Password Storage Cheat Sheet: 10 or more). */
  cost?: number
  /** Highest cost `verify` runs for a stored hash (default 14, or `cost` if higher); above it: ParameterLimitError. */
  limits?: { cost?: number }
  /** May lower bcrypt's 72-byte ceiling, never raise it nor admit NUL bytes (see BCRYPT_PASSWORD_POLICY). */
  policy?: Partial<PasswordPolicy>
}

/**
 * The one thing that differs between bcrypt libraries: running bcrypt on already-checked password bytes
 * with a given cost and 16-byte salt, returning the library's 60-character modular crypt string
 * (whichever of `2a`/`2b` it writes: they agree on every password the policy admits).
 */
export type BcryptEngine = (password: Uint8Array, cost: number, salt: Uint8Array) => Promise<string>

/**
 * A PasswordHasher around a bcrypt engine, so the policy, the hostile-hash checks, the `$2b$` output and
 * the constant-time comparison are the same code in every authlab bcrypt package. Verification recomputes
 * the checksum with the stored cost and salt and compares it here, so every package compares the same
 * way instead of each library's own compare deciding.
 */
export function createBcryptHasher(
  describe: Pick<PasswordHasherInfo, 'name' | 'displayName' | 'wraps' | 'runsOn'>,
  engine: BcryptEngine,
  { cost = DEFAULT_BCRYPT_COST, limits, policy: overrides }: BcryptOptions = {},
): PasswordHasher {
  const costLimit = limits?.cost ?? Math.max(DEFAULT_BCRYPT_COST_LIMIT, cost)
  checkBcryptCost(cost, costLimit)
  const policy = resolvePasswordPolicy(overrides, BCRYPT_PASSWORD_POLICY, BCRYPT_PASSWORD_POLICY)

  const checksumOf = async (password: Uint8Array, storedCost: number, salt: Uint8Array) => {
    const computed = parseBcryptHash(await engine(password, storedCost, salt), BCRYPT_MAX_COST)
    // A library that ignored the cost or salt we passed would make every verify fail open or closed.
    if (computed.cost !== storedCost || !constantTimeEqual(computed.salt, salt)) {
      throw new InvalidHashError(`${describe.name}: the bcrypt library returned a hash for other parameters`)
    }
    return computed.checksum
  }

  const hasher: PasswordHasher = {
    info: Object.freeze({ ...describe, algorithm: 'bcrypt', params: Object.freeze({ cost }) }),
    async hash(password) {
      const bytes = checkPassword(password, policy)
      const salt = crypto.getRandomValues(new Uint8Array(BCRYPT_SALT_BYTES))
      return formatBcryptHash(cost, salt, await checksumOf(bytes, cost, salt))
    },
    async verify(encoded, password) {
      const stored = parseBcryptHash(encoded, costLimit)
      const bytes = checkPassword(password, policy)
      return constantTimeEqual(await checksumOf(bytes, stored.cost, stored.salt), stored.checksum)
    },
    needsRehash(encoded) {
      // Another algorithm (or crypt_blowfish's buggy `2x`) is replaced on the next successful login, as
      // in defineKdfHasher; a malformed bcrypt string still throws, and an over-limit cost is stronger
      // than the configured one, not weaker.
      if (typeof encoded === 'string' && !BCRYPT_PREFIX.test(encoded)) return true
      return parseBcryptHash(encoded, BCRYPT_MAX_COST).cost < cost
    },
  }
  return Object.freeze(hasher)
}
