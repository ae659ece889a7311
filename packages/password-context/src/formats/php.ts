import { checkOptions, encodeBase64, InvalidHashError, parsePhc, phcDecimal } from '@authlab/core'
import { randomBytes } from './encoding.js'
import { defineForeignHasher, type ForeignFormat, type ForeignHasher, likeOption, within } from './foreign.js'
import { type Argon2Engine, type Argon2Params, argon2, argon2Option, sameBytes } from './kdf.js'

/**
 * PHP's `password_hash($password, PASSWORD_ARGON2I)` (and libargon2's `argon2i` encoding):
 * `$argon2i$v=19$m=65536,t=4,p=1$<salt>$<hash>`, unpadded standard base64. PHP's other formats are
 * authlab's own families: `$2y$` is bcrypt and `$argon2id$` argon2id.
 */
export const ARGON2I_FORMAT = /^\$argon2i\$/

interface Argon2iHash {
  readonly params: Argon2Params
  readonly salt: Uint8Array
  readonly hash: Uint8Array
}

/** The `m=,t=,p=` of a PHC argon2 string, each exactly once. */
export function argon2PhcParams(params: Readonly<Record<string, string>>): Argon2Params {
  const names = Object.keys(params).sort().join(',')
  if (names !== 'm,p,t') throw new InvalidHashError(`parameters must be m, t and p, got ${names}`)
  return { m: phcDecimal(params.m, 'm'), t: phcDecimal(params.t, 't'), p: phcDecimal(params.p, 'p') }
}

function parseArgon2i(encoded: string): Argon2iHash {
  return within('argon2i', () => {
    const phc = parsePhc(encoded)
    if (phc.id !== 'argon2i') throw new InvalidHashError('not an argon2i string')
    // Version 0x13 since libargon2 20161029; node:crypto computes no other.
    if (phc.version !== 19) throw new InvalidHashError('version is not v=19')
    if (!phc.salt || !phc.hash) throw new InvalidHashError('salt or hash missing')
    return { params: argon2PhcParams(phc.params), salt: phc.salt, hash: phc.hash }
  })
}

const argon2iFormat = (engine: Argon2Engine | undefined): ForeignFormat<Argon2iHash> => ({
  family: 'argon2i',
  displayName: "argon2i (PHP's PASSWORD_ARGON2I)",
  wraps: 'node:crypto argon2, or the given engine',
  runsOn: 'threadpool',
  maxLength: 512,
  parse: parseArgon2i,
  async verify({ params, salt, hash }, password) {
    return sameBytes(await argon2(engine, 'argon2i', password, salt, params, hash.length), hash)
  },
  async write({ params, hash: { length } }, password) {
    const salt = randomBytes(16)
    const hash = await argon2(engine, 'argon2i', password, salt, params, length)
    return `$argon2i$v=19$m=${params.m},t=${params.t},p=${params.p}$${encodeBase64(salt)}$${encodeBase64(hash)}`
  },
  setting: ({ params }) => ({ variant: 'argon2i', params }),
})

// PHP 7.4+'s defaults: PASSWORD_ARGON2_DEFAULT_MEMORY_COST 65536 KiB, _TIME_COST 4, _THREADS 1; a
// 16-byte salt and a 32-byte hash (ext/standard/password.c).
const PHP_DEFAULT: Argon2iHash = {
  params: { m: 65536, t: 4, p: 1 },
  salt: new Uint8Array(16),
  hash: new Uint8Array(32),
}

export interface Argon2iOptions {
  /** The argon2 engine; defaults to Node's `crypto.argon2` (Node ≥ 24.7). */
  argon2?: Argon2Engine
  /** A stored `$argon2i$` hash whose parameters `hash` copies; defaults to PHP's (m=65536, t=4, p=1). */
  writeLike?: string
}

/** Reads `$argon2i$` hashes, as PHP's `password_hash` and libargon2 write them. */
export function argon2i(options?: Argon2iOptions): ForeignHasher {
  const checked = checkOptions('argon2i', options, {
    argon2: { type: 'function' },
    writeLike: { type: 'string' },
  }) as Argon2iOptions
  const format = argon2iFormat(argon2Option('argon2i', checked.argon2))
  return defineForeignHasher(format, likeOption(format, checked.writeLike) ?? PHP_DEFAULT)
}
