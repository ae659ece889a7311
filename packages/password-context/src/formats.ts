import { guessHashFamily, type HashFamily } from '@authlab/core'
import { BETTER_AUTH_FORMAT, BETTER_AUTH_SCRYPT } from './better-auth.js'
import { ASPNET_IDENTITY_FORMAT } from './formats/aspnet.js'
import { DJANGO_FORMAT } from './formats/django.js'
import { FIREBASE_FORMAT } from './formats/firebase.js'
import type { ForeignFamily } from './formats/foreign.js'
import { KEYCLOAK_FORMAT } from './formats/keycloak.js'
import { ARGON2I_FORMAT } from './formats/php.js'
import { PHPASS_FORMAT } from './formats/phpass.js'
import { SPRING_FORMAT } from './formats/spring.js'
import { UnsupportedHashError } from './formats/unsupported.js'
import { readMarker } from './normalize.js'

export * from './formats/index.js'
export { UnsupportedHashError } from './formats/unsupported.js'

/**
 * A family a context routes: authlab's hash families, better-auth's default format (read built in),
 * and the stored formats of other stacks (read by the hashers of `./formats/`, given in `legacy`).
 */
export type StoredFormat = HashFamily | typeof BETTER_AUTH_SCRYPT | ForeignFamily

/**
 * How each other stack's stored values look, tested after authlab's own formats (so `$2y$` stays
 * bcrypt and `$argon2id$` argon2id, whoever wrote them). Each pattern is anchored and cheap.
 */
const FOREIGN: ReadonlyArray<readonly [ForeignFamily, RegExp]> = [
  ['django', DJANGO_FORMAT],
  ['argon2i', ARGON2I_FORMAT],
  ['spring-security', SPRING_FORMAT],
  ['phpass', PHPASS_FORMAT],
  ['firebase-scrypt', FIREBASE_FORMAT],
  ['keycloak', KEYCLOAK_FORMAT],
  ['aspnet-identity', ASPNET_IDENTITY_FORMAT],
]

/**
 * Values those stacks store that are not password hashes worth verifying: refused with what they are
 * and what to do, never compared. A plain-text or unsalted fast digest is crackable offline in
 * seconds (OWASP Password Storage Cheat Sheet); it is rehashed once, offline, at import instead.
 */
const REFUSED: ReadonlyArray<readonly [string, RegExp, string]> = [
  [
    'Spring Security {noop} (plain text)',
    /^\{noop\}/,
    "is Spring Security's {noop}: the password in plain text, which a password context never compares; hash these with your current hasher once, at import",
  ],
  [
    'Spring Security fast digest ({MD4}, {MD5}, {SHA-1}, {SHA-256}, {sha256}, {ldap})',
    /^\{(MD4|MD5|SHA-1|SHA-256|sha256|ldap)\}/,
    "is one of Spring Security's deprecated fast digests, which no authlab hasher verifies",
  ],
  [
    'Django fast digest (md5, sha1, unsalted_md5, unsalted_sha1, crypt)',
    /^(md5|sha1|unsalted_md5|unsalted_sha1|crypt)\$/,
    "is one of Django's deprecated fast-digest fields, which no authlab hasher verifies",
  ],
  [
    'Django unusable password (!…)',
    /^![A-Za-z0-9]*$/,
    "is Django's unusable password (set_unusable_password): the user has none; store null for them, which a context verifies as a missing user",
  ],
]

/**
 * The routable family of a stored hash, or an UnsupportedHashError naming what it looks like. A hash
 * the context wrote is read past its `nfc:` or `nfkc:` marker, so a column read back from the database
 * identifies as the format it holds.
 */
export function identifyHash(stored: string): StoredFormat {
  // A value from JavaScript callers may be anything: guessHashFamily names a non-string as unknown.
  const encoded = typeof stored === 'string' ? readMarker(stored).hash : stored
  if (BETTER_AUTH_FORMAT.test(encoded)) return BETTER_AUTH_SCRYPT
  const { family, routable } = guessHashFamily(encoded)
  if (routable) return family as HashFamily
  for (const [foreign, pattern] of FOREIGN) if (pattern.test(encoded)) return foreign
  for (const [name, pattern, message] of REFUSED) {
    if (pattern.test(encoded)) throw new UnsupportedHashError(name, `stored hash ${message}`)
  }
  if (family === 'unknown') {
    throw new UnsupportedHashError(family, 'stored hash is not in any recognised password-hash format')
  }
  throw new UnsupportedHashError(family, `stored hash looks like ${family}, which no authlab hasher verifies`)
}
