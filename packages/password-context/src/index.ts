import { InvalidHashError, InvalidOptionError, type Password, type PasswordHasher } from '@authlab/core'
import { betterAuthScrypt } from './better-auth.js'
import { identifyHash, type StoredFormat, UnsupportedHashError } from './formats.js'

export type { HashFamily } from '@authlab/core'
export * from '@authlab/core/errors'
export { BETTER_AUTH_SCRYPT, betterAuthScrypt } from './better-auth.js'
export { identifyHash, type StoredFormat, UnsupportedHashError } from './formats.js'

export interface PasswordContextOptions {
  /** The hasher every new and upgraded hash is written with. */
  readonly current: PasswordHasher
  /** Hashers for formats still stored but no longer written, e.g. bcrypt while moving to argon2id. */
  readonly legacy?: readonly PasswordHasher[]
}

export interface VerifyResult {
  readonly valid: boolean
  /**
   * Present when the password was right but the stored hash is legacy or weaker than `current`: the
   * new hash to store. Write it with a compare-and-swap on the old value (see the README), so a
   * concurrent password change is never overwritten by a login.
   */
  readonly rehashed?: string
}

export interface PasswordContext {
  /**
   * Routes `encoded` to the hasher for its format and verifies. `encoded` null, undefined or `''` (a
   * common "no password set" value in user tables) means "no such user": the password is then checked against a dummy hash of `current`, so the answer takes
   * as long as a real verify and login timing does not reveal which accounts exist (OWASP
   * Authentication Cheat Sheet, "Authentication and Error Messages").
   */
  verify(encoded: string | null | undefined, password: Password): Promise<VerifyResult>
  /** A new hash with `current`. */
  hash(password: Password): Promise<string>
  /**
   * Whether a stored hash would be rewritten on its next successful verify. A hash its hasher cannot
   * parse throws InvalidHashError, legacy or current alike (it could never verify, so "upgrade" would be
   * a guess); an unroutable one throws UnsupportedHashError.
   */
  needsUpgrade(encoded: string): boolean
  /** Which family a stored hash belongs to; throws UnsupportedHashError for anything unroutable. */
  identify(encoded: string): StoredFormat
}

/**
 * Verify-and-upgrade across hash formats, in the manner of passlib's `CryptContext.verify_and_update`,
 * Django's `check_password(…, setter)` and Spring's `DelegatingPasswordEncoder`: stored hashes keep
 * working in whatever format they were written, and each is replaced by a `current` hash the next time
 * its owner logs in.
 */
export function createPasswordContext(options: PasswordContextOptions): PasswordContext {
  const { current, legacy = [] } = checkOptions(options)
  const hasherFor = routeTable(current, legacy)
  // Made at once, so even the first missing-user verify costs one verify and not a hash plus a verify.
  // The secret is random and discarded: nobody can log in to the dummy.
  const dummy = current.hash(crypto.randomUUID())
  dummy.catch(() => {}) // surfaced by the first missing-user verify, not as an unhandled rejection

  function route(encoded: unknown): PasswordHasher {
    if (typeof encoded !== 'string') {
      throw new InvalidHashError(`stored hash must be a string, got ${typeof encoded}`)
    }
    const family = identifyHash(encoded)
    const hasher = hasherFor.get(family)
    if (!hasher) {
      throw new UnsupportedHashError(
        family,
        `stored hash is a ${family} hash and no ${family} hasher is configured: add one to \`legacy\``,
      )
    }
    return hasher
  }

  function needsUpgrade(encoded: string): boolean {
    const hasher = route(encoded)
    // The routed hasher's own needsRehash parses the hash, so a broken legacy hash is refused as a
    // broken current one is, rather than reported as upgradable.
    const weaker = hasher.needsRehash(encoded)
    return hasher !== current || weaker
  }

  return Object.freeze({
    async verify(encoded: string | null | undefined, password: Password): Promise<VerifyResult> {
      if (encoded === null || encoded === undefined || encoded === '') {
        await current.verify(await dummy, password)
        return { valid: false }
      }
      const hasher = route(encoded)
      if (!(await hasher.verify(encoded, password))) return { valid: false }
      if (!needsUpgrade(encoded)) return { valid: true }
      try {
        return { valid: true, rehashed: await current.hash(password) }
      } catch (error) {
        // The password was right but `current` refuses it (bcrypt's 72-byte limit, say): the user still
        // logs in, the old hash stays, and `needsUpgrade` keeps reporting it.
        if ((error as { code?: unknown })?.code === 'ERR_AUTHLAB_PASSWORD_POLICY') return { valid: true }
        throw error
      }
    },
    hash: (password: Password) => current.hash(password),
    needsUpgrade,
    identify: identifyHash,
  })
}

function checkOptions(options: PasswordContextOptions): PasswordContextOptions {
  const keys = options === null || typeof options !== 'object' ? [] : Object.keys(options)
  const unknown = keys.filter((key) => key !== 'current' && key !== 'legacy')
  if (unknown.length > 0) {
    throw new InvalidOptionError(`unknown option ${unknown.join(', ')}: valid options are current, legacy`)
  }
  if (!isHasher(options?.current)) {
    throw new InvalidOptionError(
      '`current` must be a password hasher (an object with info, hash, verify, needsRehash)',
    )
  }
  if (options.legacy !== undefined && !(Array.isArray(options.legacy) && options.legacy.every(isHasher))) {
    throw new InvalidOptionError('`legacy` must be an array of password hashers')
  }
  return options
}

function isHasher(value: unknown): value is PasswordHasher {
  const hasher = value as Partial<PasswordHasher> | null | undefined
  return (
    typeof hasher?.info?.algorithm === 'string' &&
    typeof hasher.hash === 'function' &&
    typeof hasher.verify === 'function' &&
    typeof hasher.needsRehash === 'function'
  )
}

/**
 * One hasher per family, `current` first: a stored hash of the current algorithm is always verified by
 * the current hasher, so its `needsRehash` judges the stored parameters. Two legacy hashers for one
 * family would make routing ambiguous, so that is refused.
 */
function routeTable(current: PasswordHasher, legacy: readonly PasswordHasher[]): Map<string, PasswordHasher> {
  const table = new Map<string, PasswordHasher>([[current.info.algorithm, current]])
  for (const hasher of legacy) {
    const family = hasher.info.algorithm
    if (family === current.info.algorithm) continue
    if (table.has(family)) {
      throw new InvalidOptionError(
        `two legacy hashers for ${family}: keep one, it verifies every ${family} hash`,
      )
    }
    table.set(family, hasher)
  }
  // better-auth's default format has fixed parameters and one reading, so every context reads it
  // without configuration: an app leaving better-auth's hasher keeps its users' hashes working.
  if (!table.has(betterAuthScrypt.info.algorithm))
    table.set(betterAuthScrypt.info.algorithm, betterAuthScrypt)
  return table
}
