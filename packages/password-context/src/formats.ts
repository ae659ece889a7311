import { guessHashFamily, type HashFamily, InvalidHashError } from '@authlab/core'
import { BETTER_AUTH_FORMAT, BETTER_AUTH_SCRYPT } from './better-auth.js'

/** A family a context routes: authlab's hash families, and better-auth's default format, read built in. */
export type StoredFormat = HashFamily | typeof BETTER_AUTH_SCRYPT

/**
 * A stored hash this context cannot verify. The message names the format family it looks like and
 * never quotes the hash: stored hashes reach error logs, and a hash in a log is an offline-guessing
 * target. `family` is the same name, for code.
 */
export class UnsupportedHashError extends InvalidHashError {
  readonly family: string

  constructor(family: string, message: string) {
    super(message)
    this.family = family
  }
}

/** The routable family of a stored hash, or an UnsupportedHashError naming what it looks like. */
export function identifyHash(encoded: string): StoredFormat {
  if (BETTER_AUTH_FORMAT.test(encoded)) return BETTER_AUTH_SCRYPT
  const { family, routable } = guessHashFamily(encoded)
  if (routable) return family as HashFamily
  if (family === 'unknown') {
    throw new UnsupportedHashError(family, 'stored hash is not in any recognised password-hash format')
  }
  throw new UnsupportedHashError(family, `stored hash looks like ${family}, which no authlab hasher verifies`)
}
