/**
 * Where a strategy does its expensive work. It decides whether hashing blocks the event loop:
 * `main-thread` does (every other request waits), the others do not.
 */
export const RUNS_ON = ['main-thread', 'threadpool', 'worker', 'remote'] as const
export type RunsOn = (typeof RUNS_ON)[number]

export type Password = string | Uint8Array

/** What a password hasher is, for the conformance suite, the bench app and humans. */
export interface PasswordHasherInfo {
  /** npm package name, e.g. `@authlab/hash-bcrypt`. */
  readonly name: string
  /** Short label for tables and charts, e.g. "bcrypt (native)". */
  readonly displayName: string
  /** The library or API doing the work, e.g. "bcrypt@6 (N-API)". */
  readonly wraps: string
  /** The algorithm: `bcrypt`, `argon2id`, `scrypt` or `pbkdf2-sha256` (the bench equalises costs per algorithm). */
  readonly algorithm: string
  readonly runsOn: RunsOn
  /** The configured cost parameters, e.g. `{ cost: 10 }` or `{ m: 19456, t: 2, p: 1 }`. */
  readonly params: Readonly<Record<string, number | string>>
  /**
   * Most derivations in flight, where the hasher refuses more with an OverloadError (a pure-JS KDF
   * holding its memory on the calling thread); absent when it queues or has no bound. A caller running
   * several kinds of work on it (a password context: stored users, missing users, sign-ups) admits its
   * own work against this number, so what load refuses does not depend on which kind of work it is.
   */
  readonly maxConcurrent?: number
}

/** What a strategy package says about itself; the definers add `algorithm` and `params` from the profile. */
export type HasherDescription = Pick<PasswordHasherInfo, 'name' | 'displayName' | 'wraps' | 'runsOn'>

/**
 * A password hasher. `hash` returns a self-describing string (bcrypt modular crypt format, or a PHC
 * string: https://github.com/P-H-C/phc-string-format) that carries algorithm, parameters and salt,
 * so `verify` needs nothing else and `needsRehash` can compare against the configured parameters.
 */
export interface PasswordHasher {
  readonly info: PasswordHasherInfo
  hash(password: Password): Promise<string>
  /** Constant-time comparison. Throws a typed AuthlabError for malformed or over-cap encoded hashes. */
  verify(encoded: string, password: Password): Promise<boolean>
  /**
   * True exactly when the stored parameters are weaker than (or a different algorithm from) the
   * configured ones. Throws InvalidHashError for a malformed hash, never for a well-formed one: a hash
   * over the caps or the work budget is not weaker, so false (verify refuses it).
   */
  needsRehash(encoded: string): boolean
}

/**
 * A key-stretching chain (a client-side protocol such as Mozilla's onepw): what the bench's stretch
 * suite runs. `identity` is the protocol's per-user input (an email), `salt` its server-side salt.
 */
export interface Stretcher {
  readonly info: PasswordHasherInfo
  stretch(identity: string, password: Password, salt: Uint8Array): Promise<unknown>
}

/** A raw key-derivation function, the building block of key-stretching chains (RFC 8018, RFC 7914). */
export interface KeyDerivation {
  readonly info: PasswordHasherInfo
  derive(password: Password, salt: Password, length: number): Promise<Uint8Array>
}
