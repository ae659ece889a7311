import { guessHashFamily, type HashFamily, InvalidHashError } from '@authlab/core'

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
export function identifyHash(encoded: string): HashFamily {
  const { family, routable } = guessHashFamily(encoded)
  if (routable) return family as HashFamily
  if (family === 'unknown') {
    throw new UnsupportedHashError(family, 'stored hash is not in any recognised password-hash format')
  }
  throw new UnsupportedHashError(family, `stored hash looks like ${family}, which no authlab hasher verifies`)
}
