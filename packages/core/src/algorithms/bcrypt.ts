import { decodeBase64, encodeBase64 } from '../encoding.js'
import { InvalidHashError, InvalidOptionError } from '../errors.js'
import { guessHashFamily, wrongHashFamily } from '../hash-family.js'
import { BCRYPT_PASSWORD_POLICY } from '../password.js'
import type { AlgorithmProfile } from './profile.js'

/**
 * bcrypt's own base64 alphabet (OpenBSD lib/libc/crypt/bcrypt.c, `Base64Code`): the bit order of
 * RFC 4648 base64 with `./` moved to the front, unpadded.
 */
export const BCRYPT_ALPHABET = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** The cost is log2 of the key-schedule rounds; bcrypt.c accepts 4..31. */
export const BCRYPT_MIN_COST = 4
export const BCRYPT_MAX_COST = 31
export const BCRYPT_SALT_BYTES = 16

/**
 * The variants every authlab bcrypt package verifies. They compute the same function on every
 * password the 72-byte policy admits: `2b` (OpenBSD 2014) only fixed a length counter that wrapped for
 * keys of 256+ bytes, and `2y` is crypt_blowfish's name for the correct algorithm. `2x` (crypt_blowfish's
 * sign-extension bug) and the original `2` are refused.
 */
export type BcryptVariant = '2a' | '2b' | '2y'

export interface BcryptHash {
  readonly variant: BcryptVariant
  readonly cost: number
  readonly salt: Uint8Array
  /** The 23-byte checksum: bcrypt encrypts "OrpheanBeholderScryDoubt" and keeps 23 of its 24 bytes. */
  readonly checksum: Uint8Array
}

// $2b$10$ + 22 salt characters (16 bytes) + 31 checksum characters (23 bytes) = 60 characters.
const SHAPE = /^\$(2[aby])\$(\d\d)\$([./A-Za-z0-9]{22})([./A-Za-z0-9]{31})$/

/**
 * Parses a modular-crypt bcrypt string, checking everything before any library sees it: the libraries
 * answer garbage with untyped errors. Salt and checksum must be canonical (unused low bits zero), so
 * each hash has one accepted text form. The cost is checked against the hasher's limits separately,
 * so a cost-31 hash is refused before hours of work.
 */
export function parseBcryptHash(encoded: string): BcryptHash {
  if (typeof encoded !== 'string')
    throw new InvalidHashError(`encoded hash must be a string, got ${typeof encoded}`)
  const match = SHAPE.exec(encoded)
  if (!match) {
    if (guessHashFamily(encoded).family !== 'bcrypt') throw wrongHashFamily('bcrypt', encoded)
    throw new InvalidHashError(
      `malformed bcrypt hash: expected "$2a$"/"$2b$"/"$2y$", a two-digit cost and 53 characters of bcrypt base64 (60 in all), got ${encoded.length} characters`,
    )
  }
  const [, variant, costText, saltText, checksumText] = match as unknown as [
    string,
    BcryptVariant,
    string,
    string,
    string,
  ]
  const cost = Number(costText)
  if (cost < BCRYPT_MIN_COST || cost > BCRYPT_MAX_COST) {
    throw new InvalidHashError(`bcrypt cost ${costText} is outside ${BCRYPT_MIN_COST}..${BCRYPT_MAX_COST}`)
  }
  return {
    variant,
    cost,
    salt: decodeBase64(saltText, BCRYPT_ALPHABET, 'bcrypt salt'),
    checksum: decodeBase64(checksumText, BCRYPT_ALPHABET, 'bcrypt checksum'),
  }
}

/** `$2b$<cost>$<salt>`: the "setting" string crypt(3)-style libraries take in place of a salt. */
export function formatBcryptSetting(cost: number, salt: Uint8Array): string {
  if (salt.length !== BCRYPT_SALT_BYTES)
    throw new InvalidOptionError(`bcrypt salt must be ${BCRYPT_SALT_BYTES} bytes`)
  return `$2b$${String(cost).padStart(2, '0')}$${encodeBase64(salt, BCRYPT_ALPHABET)}`
}

/** The full `$2b$` string. authlab always writes `2b`, the current OpenBSD identifier. */
export function formatBcryptHash(cost: number, salt: Uint8Array, checksum: Uint8Array): string {
  return formatBcryptSetting(cost, salt) + encodeBase64(checksum, BCRYPT_ALPHABET)
}

/** bcrypt (Provos & Mazières 1999) in the OpenBSD modular crypt format, `$2b$<cost>$<salt><checksum>`. */
export const BCRYPT: AlgorithmProfile = {
  id: 'bcrypt',
  params: {
    cost: {
      type: 'integer',
      min: BCRYPT_MIN_COST,
      max: BCRYPT_MAX_COST,
      description: 'log2 of the key-schedule rounds',
    },
  },
  // node.bcrypt.js calls it saltRounds (or rounds), bcryptjs too; hash-wasm costFactor; PHP and Python `rounds`.
  aliases: { saltRounds: 'cost', rounds: 'cost', costFactor: 'cost', workFactor: 'cost', logRounds: 'cost' },
  // OWASP Password Storage Cheat Sheet: "a work factor of 10 or more".
  defaults: { cost: 10 },
  // 2^14 rounds is 16× the default, about a second even in pure JS: a stored hash claiming more (cost
  // 31 is 2^17 × that) is refused before any work.
  caps: { cost: 14 },
  budget: { units: 2 ** 14, memoryBytes: 2 ** 28 },
  // Eksblowfish: 2^cost rounds of two ExpandKey passes over the 4 KiB S-boxes and the 18-word P-array.
  work: (params) => ({ units: 2 ** (params.cost as number), memoryBytes: 4 * 256 * 4 + 18 * 4 }),
  unit: 'key-schedule rounds (2^cost)',
  bench: [
    { label: 'bcrypt cost 10', params: { cost: 10 }, quick: true },
    { label: 'bcrypt cost 12', params: { cost: 12 }, quick: false },
  ],
  baseline: '@authlab/hash-bcrypt',
  absurd: [{ label: 'cost 31', edit: (h) => h.replace(/^\$(2[aby]?)\$\d\d\$/, '$$$1$$31$$') }],
  vectors: { encoded: 'BCRYPT_VECTORS' },
  testParams: { cheap: { cost: 4 }, stronger: { cost: 5 } },
  policy: BCRYPT_PASSWORD_POLICY,
}
