import { InvalidHashError, InvalidOptionError, type Password, type PasswordHasher } from '@authlab/core'
import { createAdmission } from './admission.js'
import { betterAuthScrypt } from './better-auth.js'
import { identifyHash, type StoredFormat, UnsupportedHashError } from './formats.js'
import { asMadeBy, formOfUnmarked, type MadeBy } from './made-from.js'
import { isPolicyError, missingUser } from './missing-user.js'
import { inForm, type NormalForm, readMarker, withMarker } from './normalize.js'

export type { HashFamily } from '@authlab/core'
export * from '@authlab/core/errors'
export { BETTER_AUTH_SCRYPT, betterAuthScrypt } from './better-auth.js'
export * from './formats.js'
export type { PasswordForm } from './normalize.js'

export interface PasswordContextOptions {
  /** The hasher every new and upgraded hash is written with. */
  readonly current: PasswordHasher
  /** Hashers for formats still stored but no longer written, e.g. bcrypt while moving to argon2id. */
  readonly legacy?: readonly PasswordHasher[]
  /**
   * The format whose verify a missing user costs: the family most of your stored hashes are in, so a
   * login for an account that does not exist takes as long as one for most accounts that do. Defaults
   * to the first `legacy` hasher's family (at the start of a migration every user is on a legacy
   * format), or `current`'s when there is no `legacy`. Any family the context reads: `current`'s, a
   * `legacy` hasher's or BETTER_AUTH_SCRYPT.
   */
  readonly missingUserFormat?: StoredFormat
}

export interface VerifyResult {
  readonly valid: boolean
  /**
   * Present when the password was right but the stored hash is legacy or weaker than `current`: the
   * new hash to store. Write it with a compare-and-swap on the old value (see the README), so a
   * concurrent password change is never overwritten by a login.
   */
  readonly rehashed?: string
  /**
   * Present when the password was right and the stored hash needed an upgrade, but `current` failed
   * to make its replacement (an OverloadError, a TimeoutError from a worker pool, a remote hasher
   * down): the login still succeeds, the old hash stays and is upgraded at a later login. Log it.
   */
  readonly upgradeError?: unknown
}

export interface PasswordContext {
  /**
   * Routes `encoded` to the hasher for its format and verifies. `encoded` null, undefined or `''` (a
   * common "no password set" value in user tables) means "no such user": the password is then checked
   * against a dummy hash in `missingUserFormat`, so the answer takes as long as a real verify of that
   * format and login timing does not tell a missing account from one stored in it (OWASP Authentication
   * Cheat Sheet, "Authentication and Error Messages"). A password a hasher's policy refuses (empty, a
   * lone surrogate, a NUL for bcrypt) is not valid, never an error, and costs the same dummy verify.
   */
  verify(encoded: string | null | undefined, password: Password): Promise<VerifyResult>
  /**
   * A new hash with `current`, of the password's NFC form, marked `nfc:` so that the context checks
   * it against that form (see the README, "What is normalised").
   */
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

/** A stored hash as the context reads it: without its marker, routed, and the form it was made from. */
interface Stored extends MadeBy {
  readonly hash: string
  readonly hasher: PasswordHasher
  /** Whether the context made it (it carries the marker naming its form). */
  readonly marked: boolean
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
  const missing = missingUser(missingUserHasher(options, hasherFor))
  const admission = createAdmission(hasherFor.values(), missing.starting)
  missing.start(admission)

  /** `password` hashed with `current`, in `form`, marked with it. */
  async function hashInForm(form: NormalForm, password: Password): Promise<string> {
    return withMarker(form, await current.hash(inForm(password, form)))
  }

  function read(encoded: unknown): Stored {
    if (typeof encoded !== 'string') {
      throw new InvalidHashError(`stored hash must be a string, got ${typeof encoded}`)
    }
    const { hash, form } = readMarker(encoded)
    const family = identifyHash(hash)
    const hasher = hasherFor.get(family)
    if (!hasher) {
      throw new UnsupportedHashError(
        family,
        `stored hash is a ${family} hash and no ${family} hasher is configured: add one to \`legacy\``,
      )
    }
    return { hash, family, hasher, form: form ?? formOfUnmarked(family), marked: form !== undefined }
  }

  /**
   * Whether a stored hash is replaced at its next successful verify: another family than `current`'s,
   * weaker parameters, or made elsewhere (no marker), so that every hash ends up in `current`'s format,
   * parameters and a form the context names.
   */
  function upgradable({ hash, hasher, marked }: Stored): boolean {
    // The routed hasher's own needsRehash parses the hash, so a broken legacy hash is refused as a
    // broken current one is, rather than reported as upgradable.
    const weaker = hasher.needsRehash(hash)
    return hasher !== current || weaker || !marked
  }

  async function verifyStored(stored: Stored, password: Password): Promise<VerifyResult> {
    try {
      if (!(await stored.hasher.verify(stored.hash, asMadeBy(stored, password)))) return { valid: false }
    } catch (error) {
      if (!isPolicyError(error)) throw error
      // A password the stored format refuses (empty, a lone surrogate, a NUL for bcrypt) cannot be
      // the stored one: not valid, in the time a missing user takes rather than at once.
      await missing.verify(undefined)
      return { valid: false }
    }
    if (!upgradable(stored)) return { valid: true }
    try {
      // An NFKC hash (better-auth's) is replaced by an NFKC one: every spelling that signed in before
      // still does. Any other is replaced by the NFC form of the password that verified, which adds
      // only its canonically equivalent spellings.
      return { valid: true, rehashed: await hashInForm(stored.form === 'NFKC' ? 'NFKC' : 'NFC', password) }
    } catch (error) {
      // The password was right but `current` refuses it (bcrypt's 72-byte limit, say): the user still
      // logs in, the old hash stays, and `needsUpgrade` keeps reporting it.
      if (isPolicyError(error)) return { valid: true }
      // The upgrade is optional and the password was right: a failed hash must not fail the login.
      return { valid: true, upgradeError: error }
    }
  }

  return Object.freeze({
    async verify(encoded: string | null | undefined, password: Password): Promise<VerifyResult> {
      if (encoded === null || encoded === undefined || encoded === '') {
        await admission.run(() => missing.verify(password))
        return { valid: false }
      }
      const stored = read(encoded)
      return admission.run(() => verifyStored(stored, password))
    },
    hash: (password: Password) => admission.run(() => hashInForm('NFC', password)),
    needsUpgrade: (encoded: string) => upgradable(read(encoded)),
    identify: (encoded: string) => identifyHash(encoded),
  })
}

/** The hasher whose verify a missing user costs (see `missingUserFormat`). */
function missingUserHasher(
  options: PasswordContextOptions,
  hasherFor: ReadonlyMap<string, PasswordHasher>,
): PasswordHasher {
  const format =
    options.missingUserFormat ?? options.legacy?.[0]?.info.algorithm ?? options.current.info.algorithm
  const hasher = hasherFor.get(format)
  if (!hasher) {
    throw new InvalidOptionError(
      `missingUserFormat ${JSON.stringify(format)} is not a format this context reads: one of ${[...hasherFor.keys()].join(', ')}`,
    )
  }
  return hasher
}

const OPTION_KEYS = ['current', 'legacy', 'missingUserFormat']

function checkOptions(options: PasswordContextOptions): PasswordContextOptions {
  const keys = options === null || typeof options !== 'object' ? [] : Object.keys(options)
  const unknown = keys.filter((key) => !OPTION_KEYS.includes(key))
  if (unknown.length > 0) {
    throw new InvalidOptionError(
      `unknown option ${unknown.join(', ')}: valid options are ${OPTION_KEYS.join(', ')}`,
    )
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
