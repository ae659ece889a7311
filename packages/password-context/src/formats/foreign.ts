import {
  checkPassword,
  DEFAULT_PASSWORD_POLICY,
  InvalidHashError,
  InvalidOptionError,
  type Password,
  type PasswordHasher,
  type PasswordHasherInfo,
  type RunsOn,
} from '@authlab/core'

/** The families of stored hashes other stacks write, one per stack (see formats.ts). */
export type ForeignFamily =
  | 'django'
  | 'argon2i'
  | 'aspnet-identity'
  | 'spring-security'
  | 'firebase-scrypt'
  | 'phpass'
  | 'keycloak'

/**
 * A reader (and writer) of one stack's stored hashes, usable in a password context's `legacy`. Every
 * stack here hashes the UTF-8 of the password exactly as typed, with no Unicode normalisation, so the
 * context checks their unmarked hashes as typed (the default of `formOfUnmarked` in made-from.ts).
 */
export interface ForeignHasher extends PasswordHasher {
  readonly info: PasswordHasherInfo & { readonly algorithm: ForeignFamily }
}

/** The variant of a stored hash (the stack's own name for its algorithm) and its cost parameters. */
export interface Setting {
  readonly variant: string
  readonly params: Readonly<Record<string, number>>
}

/** What one stack's module supplies: a strict parser, a verifier, a writer and the setting of a hash. */
export interface ForeignFormat<Stored> {
  readonly family: ForeignFamily
  readonly displayName: string
  readonly wraps: string
  readonly runsOn: RunsOn
  /** The longest stored value accepted, checked before anything else reads it. */
  readonly maxLength: number
  /** InvalidHashError naming the format and field for anything malformed; never does expensive work. */
  parse(encoded: string): Stored
  /** Recomputes and compares in constant time; ParameterLimitError before any work over the caps. */
  verify(stored: Stored, password: Uint8Array): Promise<boolean>
  /** A new stored value with `like`'s variant and parameters and a fresh salt. */
  write(like: Stored, password: Uint8Array): Promise<string>
  setting(stored: Stored): Setting
}

/** The format's parse, after the checks every stored value gets: a string, of bounded length. */
function parseBounded<Stored>(format: ForeignFormat<Stored>, encoded: unknown): Stored {
  if (typeof encoded !== 'string') {
    throw new InvalidHashError(`${format.family}: stored hash must be a string, got ${typeof encoded}`)
  }
  if (encoded.length > format.maxLength) {
    throw new InvalidHashError(
      `${format.family}: stored hash of ${encoded.length} characters exceeds ${format.maxLength}`,
    )
  }
  return format.parse(encoded)
}

const weaker = (stored: Setting, target: Setting) =>
  stored.variant !== target.variant ||
  Object.entries(target.params).some(([key, value]) => (stored.params[key] ?? 0) < value)

/**
 * A PasswordHasher over one stack's format. `hash` writes `like`'s variant and parameters (the
 * stack's default unless the caller passed a stored hash to copy): what a missing user's dummy
 * verify costs when this family is the context's `missingUserFormat`. The password policy is
 * authlab's default (1 to 4,096 bytes): a refused password is not valid, never an error.
 */
export function defineForeignHasher<Stored>(format: ForeignFormat<Stored>, like: Stored): ForeignHasher {
  const target = format.setting(like)
  const hasher: ForeignHasher = {
    info: Object.freeze({
      name: '@authlab/password-context',
      displayName: format.displayName,
      wraps: format.wraps,
      algorithm: format.family,
      runsOn: format.runsOn,
      params: Object.freeze({ variant: target.variant, ...target.params }),
    }),
    async hash(password: Password) {
      return format.write(like, checkPassword(password, DEFAULT_PASSWORD_POLICY))
    },
    async verify(encoded: string, password: Password) {
      const stored = parseBounded(format, encoded)
      return format.verify(stored, checkPassword(password, DEFAULT_PASSWORD_POLICY))
    },
    needsRehash(encoded: string) {
      return weaker(format.setting(parseBounded(format, encoded)), target)
    },
  }
  return Object.freeze(hasher)
}

/** `what`'s parse, with any InvalidHashError's message prefixed by the format's name. */
export function within<T>(what: string, parse: () => T): T {
  try {
    return parse()
  } catch (error) {
    if ((error as { code?: unknown })?.code !== 'ERR_AUTHLAB_INVALID_HASH') throw error
    throw new InvalidHashError(`${what}: ${(error as Error).message}`, { cause: error })
  }
}

/** A decimal field: digits without a leading zero, within `max`; InvalidHashError naming the field. */
export function decimalField(text: string | undefined, what: string, max = 2 ** 32 - 1): number {
  if (text === undefined || !/^(0|[1-9][0-9]{0,15})$/.test(text) || Number(text) > max) {
    throw new InvalidHashError(`${what} is not a decimal integer up to ${max}`)
  }
  return Number(text)
}

/** The `writeLike` option: a stored value of the format, parsed; InvalidOptionError if it is not one. */
export function likeOption<Stored>(format: ForeignFormat<Stored>, text: unknown): Stored | undefined {
  if (text === undefined) return undefined
  try {
    return parseBounded(format, text)
  } catch (error) {
    throw new InvalidOptionError(
      `${format.family}: option "writeLike" is not a stored hash of this format: ${(error as Error).message}`,
      {
        cause: error,
      },
    )
  }
}
