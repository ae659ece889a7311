import { InvalidHashError } from '@authlab/core'

/** The stored-hash families a password context can route to a hasher (`info.algorithm`). */
export type HashFamily = 'bcrypt' | 'argon2id' | 'scrypt' | 'pbkdf2-sha256'

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

// Order matters: the first match wins, so `$argon2id$` is tested before the argon2i/argon2d look-alike.
const ROUTABLE: ReadonlyArray<readonly [HashFamily, RegExp]> = [
  // $2a$, $2b$ and $2y$ are one algorithm; the letters record which implementation bugs were fixed.
  ['bcrypt', /^\$2[aby]\$/],
  ['argon2id', /^\$argon2id\$/],
  ['scrypt', /^\$scrypt\$/],
  // Both the PHC form ($pbkdf2-sha256$i=…) and passlib's modular crypt form ($pbkdf2-sha256$29000$…).
  ['pbkdf2-sha256', /^\$pbkdf2-sha256\$/],
]

/** Formats seen in real user tables that no authlab hasher verifies, named so the operator knows what they hold. */
const LOOK_ALIKES: ReadonlyArray<readonly [string, RegExp]> = [
  ['bcrypt $2$ or $2x$ (obsolete or buggy-implementation variants)', /^\$2x?\$/],
  ['argon2i or argon2d (not argon2id)', /^\$argon2[id]\$/],
  ['MD5-crypt ($1$)', /^\$1\$/],
  ['Apache MD5 ($apr1$)', /^\$apr1\$/],
  ['SHA-256-crypt ($5$)', /^\$5\$/],
  ['SHA-512-crypt ($6$)', /^\$6\$/],
  ['yescrypt ($y$)', /^\$g?y\$/],
  ['PBKDF2 with a digest other than SHA-256', /^\$pbkdf2(-sha1|-sha512)?\$/],
  ['a Django password field (algorithm$…)', /^[a-z0-9_]+\$[^$]/],
  ['an LDAP {SCHEME} value', /^\{[A-Za-z0-9.-]+\}/],
  ['a bare hex digest (unsalted MD5 or SHA: not a password hash)', /^[0-9a-fA-F]{32,128}$/],
  ['a PHC string of another algorithm', /^\$[a-z0-9-]+\$/],
]

/** The routable family of a stored hash, or an UnsupportedHashError naming what it looks like. */
export function identifyHash(encoded: string): HashFamily {
  for (const [family, pattern] of ROUTABLE) if (pattern.test(encoded)) return family
  for (const [family, pattern] of LOOK_ALIKES) {
    if (pattern.test(encoded)) {
      throw new UnsupportedHashError(
        family,
        `stored hash looks like ${family}, which no authlab hasher verifies`,
      )
    }
  }
  throw new UnsupportedHashError('unknown', 'stored hash is not in any recognised password-hash format')
}
