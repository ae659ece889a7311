import {
  BCRYPT,
  BCRYPT_PASSWORD_POLICY,
  InvalidHashError,
  InvalidOptionError,
  type Password,
  type PasswordHasher,
  passwordToBytes,
} from '@authlab/core'
import { BETTER_AUTH_SCRYPT, betterAuthScrypt } from './better-auth.js'
import { identifyHash, type StoredFormat, UnsupportedHashError } from './formats.js'
import { normalizePassword } from './normalize.js'

export type { HashFamily } from '@authlab/core'
export * from '@authlab/core/errors'
export { BETTER_AUTH_SCRYPT, betterAuthScrypt } from './better-auth.js'
export * from './formats.js'

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
  /** A new hash with `current`, of the password's NFKC form. */
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

/** A dummy hash for the missing-user verify, and the secret it was made from. */
interface Dummy {
  readonly encoded: string
  readonly secret: string
}

const isPolicyError = (error: unknown) =>
  (error as { code?: unknown })?.code === 'ERR_AUTHLAB_PASSWORD_POLICY'

/**
 * Verify-and-upgrade across hash formats, in the manner of passlib's `CryptContext.verify_and_update`,
 * Django's `check_password(…, setter)` and Spring's `DelegatingPasswordEncoder`: stored hashes keep
 * working in whatever format they were written, and each is replaced by a `current` hash the next time
 * its owner logs in.
 */
export function createPasswordContext(options: PasswordContextOptions): PasswordContext {
  const { current, legacy = [] } = checkOptions(options)
  const hasherFor = routeTable(current, legacy)
  const dummyHasher = missingUserHasher(options, hasherFor)
  let dummy: Promise<Dummy> | undefined

  /**
   * The missing-user dummy, made once. Its secret is random and never leaves the context: nobody can
   * log in to it. A failed hash (an overloaded pool, a worker timeout) is not kept, so the next
   * missing-user verify makes it again instead of failing for the life of the process.
   */
  function dummyHash(): Promise<Dummy> {
    if (dummy) return dummy
    const secret = crypto.randomUUID()
    const made = dummyHasher.hash(secret).then((encoded) => ({ encoded, secret }))
    dummy = made
    made.catch(() => {
      if (dummy === made) dummy = undefined
    })
    return made
  }
  // Started at once, so even the first missing-user verify costs one verify and not a hash plus a verify.
  dummyHash()

  /**
   * The password as the maker of a stored hash of `family` took it. Hashes this context writes, and
   * better-auth's, are of the NFKC form; a legacy format was made elsewhere (passlib, Auth0, Django),
   * from the password as typed. A bcrypt key is at most 72 bytes (Provos & Mazières 1999, §6), and the
   * implementations most stored bcrypt hashes come from (OpenBSD's, crypt_blowfish, node.bcrypt.js,
   * bcryptjs) used the first 72 bytes of a longer password: those bytes are what its hash checks.
   */
  function asMadeBy(family: string, password: Password): Password {
    const own = family === current.info.algorithm || family === BETTER_AUTH_SCRYPT
    const input = own ? normalizePassword(password) : password
    return family === BCRYPT.id ? passwordToBytes(input).subarray(0, BCRYPT_PASSWORD_POLICY.maxBytes) : input
  }

  /**
   * One verify of the dummy hash: with `password`, or with the dummy's own secret when `password` is
   * undefined or refused by the dummy's policy, so the cost is that verify's either way. Errors other
   * than a refusal (an overload, a timeout) are a real user's verify's errors too, and propagate.
   */
  async function verifyDummy(password: Password | undefined): Promise<void> {
    const { encoded, secret } = await dummyHash()
    const family = dummyHasher.info.algorithm
    if (password !== undefined) {
      try {
        await dummyHasher.verify(encoded, asMadeBy(family, password))
        return
      } catch (error) {
        if (!isPolicyError(error)) throw error
      }
    }
    await dummyHasher.verify(encoded, asMadeBy(family, secret))
  }

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
        await verifyDummy(password)
        return { valid: false }
      }
      const hasher = route(encoded)
      try {
        if (!(await hasher.verify(encoded, asMadeBy(hasher.info.algorithm, password))))
          return { valid: false }
      } catch (error) {
        if (!isPolicyError(error)) throw error
        // A password the stored format refuses (empty, a lone surrogate, a NUL for bcrypt) cannot be
        // the stored one: not valid, in the time a missing user takes rather than at once.
        await verifyDummy(undefined)
        return { valid: false }
      }
      if (!needsUpgrade(encoded)) return { valid: true }
      try {
        return { valid: true, rehashed: await current.hash(normalizePassword(password)) }
      } catch (error) {
        // The password was right but `current` refuses it (bcrypt's 72-byte limit, say): the user still
        // logs in, the old hash stays, and `needsUpgrade` keeps reporting it.
        if (isPolicyError(error)) return { valid: true }
        // The upgrade is optional and the password was right: a failed hash must not fail the login.
        return { valid: true, upgradeError: error }
      }
    },
    hash: (password: Password) => current.hash(normalizePassword(password)),
    needsUpgrade,
    identify: identifyHash,
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
