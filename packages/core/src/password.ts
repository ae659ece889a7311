import { passwordToBytes } from './encoding.js'
import { InvalidOptionError, PasswordPolicyError } from './errors.js'
import type { Password } from './hash.js'
import type { OptionSpecs } from './options.js'

/**
 * Which passwords a hasher accepts, checked on the UTF-8 bytes before any work in both `hash` and
 * `verify`. A refused password is a PasswordPolicyError, never a silent change of the input.
 */
export interface PasswordPolicy {
  /**
   * Fewest bytes accepted. Default 1: an empty password is refused, because a hash of "" protects
   * nothing; the app's own minimum (ASVS 5.0 V6.2.1: 8 characters) belongs before the hasher.
   */
  readonly minBytes: number
  /**
   * Most bytes accepted. Default 4096: far above ASVS 5.0 V6.2.9's "at least 64 characters", low enough
   * that a megabyte "password" is a clear error instead of CPU spent on it.
   */
  readonly maxBytes: number
  /** Whether a NUL byte may appear (bcrypt's C implementations stop at the first NUL). */
  readonly allowNul: boolean
}

export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = Object.freeze({
  minBytes: 1,
  maxBytes: 4096,
  allowNul: true,
})

/**
 * bcrypt reads at most 72 bytes of key (Provos & Mazières 1999, §6; OpenBSD bcrypt.c) and the C
 * implementations treat the key as a NUL-terminated string. Longer or NUL-containing passwords are
 * refused rather than silently truncated, identically in every authlab bcrypt package.
 */
export const BCRYPT_PASSWORD_POLICY: PasswordPolicy = Object.freeze({
  minBytes: 1,
  maxBytes: 72,
  allowNul: false,
})

/** The `policy` option's keys: `allowNul: "no"` is a type error, not a truthy value. */
export const POLICY_OPTION_SPECS: OptionSpecs = Object.freeze({
  minBytes: { type: 'integer', min: 0 },
  maxBytes: { type: 'integer', min: 0 },
  allowNul: { type: 'boolean' },
})

/**
 * A policy from the caller's overrides on top of `base`. `ceiling`, when given, is what the algorithm
 * itself cannot exceed: `resolvePasswordPolicy(o, BCRYPT_PASSWORD_POLICY, BCRYPT_PASSWORD_POLICY)` lets
 * a caller lower bcrypt's 72 bytes but never raise it nor allow NUL.
 */
export function resolvePasswordPolicy(
  overrides: Partial<PasswordPolicy> | undefined,
  base: PasswordPolicy = DEFAULT_PASSWORD_POLICY,
  ceiling?: PasswordPolicy,
): PasswordPolicy {
  const policy = { ...base, ...overrides }
  const { minBytes, maxBytes } = policy
  if (
    !Number.isSafeInteger(minBytes) ||
    minBytes < 0 ||
    !Number.isSafeInteger(maxBytes) ||
    maxBytes < minBytes
  ) {
    throw new InvalidOptionError(
      `password policy needs integers 0 ≤ minBytes ≤ maxBytes, got ${minBytes}..${maxBytes}`,
    )
  }
  if (ceiling && maxBytes > ceiling.maxBytes) {
    throw new InvalidOptionError(`this algorithm cannot take more than ${ceiling.maxBytes} password bytes`)
  }
  if (ceiling && policy.allowNul && !ceiling.allowNul) {
    throw new InvalidOptionError('this algorithm cannot take a password containing a NUL byte')
  }
  return Object.freeze(policy)
}

/** The password's bytes if the policy accepts it; a PasswordPolicyError saying why otherwise. */
export function checkPassword(password: Password, policy: PasswordPolicy): Uint8Array {
  const bytes = passwordToBytes(password)
  if (bytes.length < policy.minBytes) {
    throw new PasswordPolicyError(
      bytes.length === 0 ? 'empty password refused' : `password shorter than ${policy.minBytes} bytes`,
    )
  }
  if (bytes.length > policy.maxBytes) {
    throw new PasswordPolicyError(
      `password of ${bytes.length} bytes exceeds the ${policy.maxBytes}-byte limit`,
    )
  }
  if (!policy.allowNul && bytes.includes(0)) {
    throw new PasswordPolicyError(
      'password contains a NUL byte, which this algorithm would silently truncate at',
    )
  }
  return bytes
}
