import { InvalidOptionError } from './errors.js'
import { checkOptions, type OptionSpecs } from './options.js'

/** RFC 4648 §5 "URL and Filename safe" alphabet, in value order: cookie-, URL- and path-safe. */
export const BASE64URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

/**
 * OWASP Session Management Cheat Sheet and ASVS 5.0 V7.2.3 ask for at least 128 bits of entropy;
 * 24 bytes (192 bits, 32 base64url characters) is what express-session and @fastify/session use.
 */
export const DEFAULT_ID_BYTES = 24
export const MIN_ID_BYTES = 18
export const MAX_ID_BYTES = 768

/**
 * The strict options check every `createIdGenerator` runs: `bytes` (every generator's size option)
 * plus the generator's own keys in `extra`; nanoid's `size` and the common `length` point to `bytes`.
 */
export function checkIdOptions<T extends object>(
  name: string,
  options: T | undefined,
  extra: OptionSpecs = {},
): T {
  return checkOptions(
    name,
    options,
    { bytes: { type: 'integer', min: MIN_ID_BYTES, max: MAX_ID_BYTES }, ...extra },
    { size: 'bytes', length: 'bytes', byteLength: 'bytes' },
  ) as T
}

/** What a generator is, for the conformance suite, the bench app and humans. */
export interface IdGeneratorInfo {
  /** npm package name, e.g. `@authlab/id-fast`. */
  readonly name: string
  /** Short label for tables and charts. */
  readonly displayName: string
  /** The technique in one line, e.g. "crypto.randomBytes(24).toString('base64url') per call". */
  readonly wraps: string
  /** Every ID has exactly this many characters. */
  readonly length: number
  /** Every character of an ID is one of these. */
  readonly alphabet: string
  /** Random bits per ID: bytes × 8, or length × log2(alphabet size); never more than the string holds. */
  readonly entropyBits: number
  /** Where the randomness comes from. */
  readonly randomness: string
  /** Bytes of randomness buffered ahead of use (0 when every call asks the CSPRNG). */
  readonly poolBytes: number
  /** Session IDs are generated synchronously on the calling thread (express-session's genid must be sync). */
  readonly runsOn: 'main-thread'
}

/**
 * A session-ID generator: usable directly as express-session `genid(req)` and @fastify/session
 * `idGenerator(request)`. The request argument is accepted and ignored.
 */
export interface IdGenerator {
  (request?: unknown): string
  readonly info: IdGeneratorInfo
}

/** Bits carried by `length` symbols drawn uniformly from an alphabet of `alphabetSize`. */
export function entropyBitsOf(length: number, alphabetSize: number): number {
  return length * Math.log2(alphabetSize)
}

/** Characters needed to base64url-encode `bytes` bytes without padding (RFC 4648 §5). */
export function base64urlLength(bytes: number): number {
  return Math.ceil((bytes * 4) / 3)
}

/**
 * Validates a requested ID size in bytes. Whole multiples of 3 keep every base64url character
 * carrying a full 6 random bits, so per-position uniformity holds and the length stays fixed.
 */
export function checkIdBytes(bytes: number): number {
  if (!Number.isSafeInteger(bytes) || bytes < MIN_ID_BYTES || bytes > MAX_ID_BYTES || bytes % 3 !== 0) {
    throw new InvalidOptionError(
      `ID size must be a multiple of 3 from ${MIN_ID_BYTES} to ${MAX_ID_BYTES} bytes, got ${String(bytes)}`,
    )
  }
  return bytes
}

/**
 * The descriptor fields shared by every generator that emits `bytes` random bytes as unpadded
 * base64url (or an equivalent 6 bits per character): length, alphabet, entropy, thread. Validates
 * `bytes` first.
 */
export function base64urlIdShape(
  bytes: number,
): Pick<IdGeneratorInfo, 'length' | 'alphabet' | 'entropyBits' | 'runsOn'> {
  checkIdBytes(bytes)
  return {
    length: base64urlLength(bytes),
    alphabet: BASE64URL_ALPHABET,
    entropyBits: bytes * 8,
    runsOn: 'main-thread',
  }
}

/** What a generator package supplies: its descriptor (data) and the function it wraps. */
export interface IdGeneratorDefinition {
  readonly info: IdGeneratorInfo
  readonly generate: (request?: unknown) => string
}

/**
 * Attaches the descriptor to a generator function, freezing it so the bench labels cannot drift.
 * Takes one object, like the hasher definers: `defineIdGenerator({ info, generate })`.
 */
export function defineIdGenerator({ info, generate }: IdGeneratorDefinition): IdGenerator {
  const maxBits = entropyBitsOf(info.length, new Set(info.alphabet).size)
  if (info.entropyBits > maxBits + 1e-9) {
    throw new InvalidOptionError(
      `${info.name} claims ${info.entropyBits} bits but ${info.length} characters of its alphabet hold at most ${maxBits.toFixed(1)}`,
    )
  }
  return Object.defineProperty(generate, 'info', {
    value: Object.freeze({ ...info }),
    enumerable: true,
  }) as IdGenerator
}

/** What `checkIdGenerator` asks of a generator besides its declared shape. */
export interface IdGeneratorCheck {
  /** IDs drawn for the check (default 3). */
  readonly samples?: number
  /**
   * Require the sampled IDs to differ (default true). A constant ID is one session for every user:
   * a server must refuse it. Only a benchmark's deliberate constant ceiling passes false.
   */
  readonly distinct?: boolean
}

/**
 * Calls `generate` a few times before it is used and refuses, with an InvalidOptionError, output
 * that is not a non-empty string, not of the declared `info.length`, has a character outside the
 * declared `info.alphabet`, or (unless `distinct: false`) repeats. A function without `info` is held
 * to the first and last rule only. Returns `generate`.
 */
export function checkIdGenerator<G extends (request?: unknown) => unknown>(
  generate: G,
  { samples = 3, distinct = true }: IdGeneratorCheck = {},
): G {
  if (typeof generate !== 'function')
    throw new InvalidOptionError(`an ID generator must be a function, got ${typeof generate}`)
  const info = (generate as { info?: Partial<IdGeneratorInfo> }).info
  const ids = new Set<string>()
  for (let i = 0; i < samples; i++) {
    const id: unknown = generate()
    if (typeof id !== 'string' || id.length === 0)
      throw new InvalidOptionError(
        `an ID generator must return a non-empty string, got ${typeof id === 'string' ? 'an empty string' : typeof id}`,
      )
    if (typeof info?.length === 'number' && id.length !== info.length)
      throw new InvalidOptionError(
        `an ID generator declared ${info.length} characters and returned ${id.length}`,
      )
    if (typeof info?.alphabet === 'string') {
      const alphabet = info.alphabet
      const stray = [...id].find((c) => !alphabet.includes(c))
      if (stray !== undefined)
        throw new InvalidOptionError(
          `an ID generator returned U+${(stray.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}, outside its declared alphabet`,
        )
    }
    ids.add(id)
  }
  if (distinct && samples > 1 && ids.size < samples)
    throw new InvalidOptionError(
      `an ID generator returned the same ID twice in ${samples} calls: every session would share it`,
    )
  return generate
}
