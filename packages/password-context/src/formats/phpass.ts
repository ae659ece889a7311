import { createHmac, hash as digest } from 'node:crypto'
import {
  type AlgorithmProfile,
  checkOptions,
  InvalidHashError,
  type PasswordHasher,
  parseBcryptHash,
} from '@authlab/core'
import { randomString, utf8 } from './encoding.js'
import {
  defineForeignHasher,
  type ForeignFormat,
  type ForeignHasher,
  likeOption,
  type Setting,
  within,
} from './foreign.js'
import { bcryptOption, checkWork, needBcrypt, sameBytes } from './kdf.js'

/**
 * phpass's portable hashes (Solar Designer's PasswordHash::crypt_private), as WordPress (`$P$`) and
 * phpBB 3.0 (`$H$`) store them, and WordPress 6.8's bcrypt (`$wp$2y$…`, wp-includes/pluggable.php
 * `wp_hash_password`).
 */
export const PHPASS_FORMAT = /^(?:\$[PH]\$|\$wp\$2y\$)/

/** phpass's itoa64: the traditional crypt(3) alphabet, in this order. */
const ITOA64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const PORTABLE = /^\$([PH])\$([./0-9A-Za-z])([./0-9A-Za-z]{8})([./0-9A-Za-z]{22})$/

/**
 * The cost of a portable hash: 2^rounds + 1 MD5s, on the main thread (node:crypto has no iterated MD5
 * off it). Capped at 2^18, 32 times WordPress's 2^13: each MD5 call of node:crypto's one-shot `hash`
 * takes about a microsecond, so a stored hash at the cap holds the event loop for a fraction of a
 * second rather than the minutes 2^30 (which crypt_private itself accepts) would.
 */
const PHPASS: AlgorithmProfile = {
  id: 'phpass',
  params: { rounds: { type: 'integer', min: 7, max: 30, description: 'log2 of the MD5 iterations' } },
  aliases: {},
  // WordPress's `new PasswordHash(8, true)` writes 2^(8 + 5) iterations: `$P$B`.
  defaults: { rounds: 13 },
  caps: { rounds: 18 },
  budget: { units: 2 ** 18, memoryBytes: 2 ** 20 },
  work: (params) => ({ units: 2 ** (params.rounds as number), memoryBytes: 0 }),
  unit: 'MD5 iterations (2^rounds)',
  bench: [],
  absurd: [],
  vectors: {},
  testParams: { cheap: { rounds: 7 }, stronger: { rounds: 8 } },
}

type PhpassHash =
  | { kind: 'portable'; ident: 'P' | 'H'; rounds: number; salt: string; checksum: string }
  | { kind: 'wordpress-bcrypt'; bcrypt: string; cost: number }

/** phpass's encode64: little-endian 6-bit groups of `bytes` in ITOA64. */
function encode64(bytes: Uint8Array): string {
  let out = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const value = (bytes[i] as number) | ((bytes[i + 1] ?? 0) << 8) | ((bytes[i + 2] ?? 0) << 16)
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6))
    for (let c = 0; c < chars; c++) out += ITOA64.charAt((value >> (6 * c)) & 63)
  }
  return out
}

function parsePhpass(encoded: string): PhpassHash {
  if (encoded.startsWith('$wp$')) {
    const bcrypt = encoded.slice(3)
    return within('phpass $wp$ (WordPress bcrypt)', () => ({
      kind: 'wordpress-bcrypt',
      bcrypt,
      cost: parseBcryptHash(bcrypt).cost,
    }))
  }
  const match = PORTABLE.exec(encoded)
  if (!match)
    throw new InvalidHashError(
      'phpass: expected $P$ or $H$, a cost character, 8 salt and 22 hash characters (34 in all)',
    )
  const [, ident, cost, salt, checksum] = match as unknown as [string, 'P' | 'H', string, string, string]
  const rounds = ITOA64.indexOf(cost)
  if (rounds < 7 || rounds > 30) throw new InvalidHashError('phpass: cost character outside 7..30')
  // 16 bytes fill 21 characters and 2 bits of the 22nd: its other bits must be zero.
  if (ITOA64.indexOf(checksum.charAt(21)) > 3)
    throw new InvalidHashError('phpass: non-canonical hash (trailing bits set)')
  return { kind: 'portable', ident, rounds, salt, checksum }
}

/** crypt_private: md5(salt . password), then 2^rounds times md5(hash . password). */
function portableChecksum(rounds: number, salt: string, password: Uint8Array): string {
  checkWork(PHPASS, { rounds }, 16)
  const buffer = new Uint8Array(16 + password.length)
  buffer.set(password, 16)
  let hash = digest('md5', Uint8Array.of(...utf8(salt), ...password), 'buffer')
  for (let i = 2 ** rounds; i > 0; i--) {
    buffer.set(hash, 0)
    hash = digest('md5', buffer, 'buffer')
  }
  return encode64(hash)
}

/**
 * wp_check_password for `$wp` hashes: bcrypt of the base64 of HMAC-SHA-384 (key "wp-sha384") of the
 * password as given. wp_hash_password trims the password first, wp_check_password does not: this
 * reads as WordPress checks.
 */
const wordpressKey = (password: Uint8Array) =>
  utf8(createHmac('sha384', 'wp-sha384').update(password).digest('base64'))

const phpassFormat = (bcrypt: PasswordHasher | undefined): ForeignFormat<PhpassHash> => ({
  family: 'phpass',
  displayName: 'phpass (WordPress, phpBB) and WordPress bcrypt',
  wraps: 'node:crypto md5 and HMAC-SHA-384; a bcrypt hasher',
  runsOn: 'main-thread',
  maxLength: 128,
  parse: parsePhpass,
  async verify(stored, password) {
    if (stored.kind === 'wordpress-bcrypt')
      return needBcrypt('phpass', bcrypt).verify(stored.bcrypt, wordpressKey(password))
    const computed = portableChecksum(stored.rounds, stored.salt, password)
    return sameBytes(utf8(computed), utf8(stored.checksum))
  },
  async write(like, password) {
    if (like.kind === 'wordpress-bcrypt')
      return `$wp${await needBcrypt('phpass', bcrypt).hash(wordpressKey(password))}`
    const salt = randomString(ITOA64, 8)
    return `$${like.ident}$${ITOA64.charAt(like.rounds)}${salt}${portableChecksum(like.rounds, salt, password)}`
  },
  setting: (stored): Setting =>
    stored.kind === 'wordpress-bcrypt'
      ? { variant: '$wp$ bcrypt', params: { cost: stored.cost } }
      : { variant: `$${stored.ident}$`, params: { rounds: stored.rounds } },
})

// WordPress before 6.8: `$P$B`, 2^13 iterations.
const WORDPRESS_PHPASS: PhpassHash = { kind: 'portable', ident: 'P', rounds: 13, salt: '', checksum: '' }

export interface PhpassOptions {
  /** An authlab bcrypt hasher, for WordPress 6.8's `$wp$2y$…` hashes. */
  bcrypt?: PasswordHasher
  /** A stored hash whose kind and cost `hash` copies; defaults to WordPress's `$P$B` (2^13). */
  writeLike?: string
}

/** Reads phpass `$P$`/`$H$` hashes (WordPress, phpBB) and WordPress 6.8's `$wp$2y$` bcrypt. */
export function phpass(options?: PhpassOptions): ForeignHasher {
  const checked = checkOptions('phpass', options, {
    bcrypt: { type: 'object' },
    writeLike: { type: 'string' },
  }) as PhpassOptions
  const format = phpassFormat(bcryptOption('phpass', checked.bcrypt))
  return defineForeignHasher(format, likeOption(format, checked.writeLike) ?? WORDPRESS_PHPASS)
}
