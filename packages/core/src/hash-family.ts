import { InvalidHashError } from './errors.js'

/** The stored-hash families authlab's hashers verify, by `info.algorithm`. */
export type HashFamily = 'bcrypt' | 'argon2id' | 'scrypt' | 'pbkdf2-sha256'

/** What a stored string looks like: a family authlab verifies, a named look-alike, or 'unknown'. */
export interface HashFamilyGuess {
  readonly family: string
  readonly routable: boolean
}

// First match wins, so `$argon2id$` is tried before the argon2i/argon2d look-alike.
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

/**
 * Names the format a stored string looks like, from its identifier alone: the name never contains any
 * of the string, because stored hashes (and passwords passed by mistake) reach error logs, where a
 * hash is an offline-guessing target (OWASP Logging Cheat Sheet: data to exclude).
 */
export function guessHashFamily(encoded: string): HashFamilyGuess {
  for (const [family, pattern] of ROUTABLE) if (pattern.test(encoded)) return { family, routable: true }
  for (const [family, pattern] of LOOK_ALIKES) if (pattern.test(encoded)) return { family, routable: false }
  return { family: 'unknown', routable: false }
}

/**
 * The error for a stored string of another format than the hasher's, saying plainly what it is: a
 * table of mixed formats needs routing by format, which one hasher cannot do.
 */
export function wrongHashFamily(expected: string, encoded: string): InvalidHashError {
  const { family, routable } = guessHashFamily(encoded)
  if (routable) {
    return new InvalidHashError(
      `the stored hash is ${family}, not ${expected}: verify it with a hasher for ${family}, or route stored hashes of several formats through a password context (@authlab/password-context)`,
    )
  }
  if (family !== 'unknown')
    return new InvalidHashError(`the stored hash is not ${expected}: it looks like ${family}`)
  return new InvalidHashError(`the stored hash is not ${expected}, nor any recognised password-hash format`)
}
