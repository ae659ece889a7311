import { createHash } from 'node:crypto'
import {
  checkOptions,
  encodeBase64,
  InvalidHashError,
  type PasswordHasher,
  parseBcryptHash,
  parsePhc,
} from '@authlab/core'
import { decodePaddedBase64, encodePaddedBase64, randomString, utf8 } from './encoding.js'
import {
  decimalField,
  defineForeignHasher,
  type ForeignFormat,
  type ForeignHasher,
  likeOption,
  type Setting,
  within,
} from './foreign.js'
import {
  type Argon2Engine,
  type Argon2Params,
  type Argon2Variant,
  argon2,
  argon2Option,
  bcryptKey,
  bcryptOption,
  needBcrypt,
  pbkdf2,
  type ScryptParams,
  sameBytes,
  scrypt,
  scryptLog2,
} from './kdf.js'
import { argon2PhcParams } from './php.js'

/**
 * Django's `django.contrib.auth.hashers` (5.2): `<algorithm>$<fields>`, one layout per hasher class.
 * Every hasher encodes the password with `str.encode()` (UTF-8, as typed) and uses the salt string's
 * UTF-8 bytes as the salt; hashes are standard padded base64 (`base64.b64encode`).
 */
type DjangoHash =
  | { kind: 'pbkdf2_sha256' | 'pbkdf2_sha1'; iterations: number; salt: string; hash: Uint8Array }
  | { kind: 'argon2'; variant: Argon2Variant; params: Argon2Params; salt: Uint8Array; hash: Uint8Array }
  | { kind: 'bcrypt_sha256' | 'bcrypt'; bcrypt: string; cost: number }
  | { kind: 'scrypt'; salt: string; params: ScryptParams; hash: Uint8Array }

/** Django's algorithms as stored: the first `$`-separated field. */
export const DJANGO_FORMAT = /^(pbkdf2_sha256|pbkdf2_sha1|argon2|bcrypt_sha256|bcrypt|scrypt)\$/

// Django's salts are get_random_string(22) over RANDOM_STRING_CHARS (django.utils.crypto); a stored
// salt may be any non-empty text without "$" (BasePasswordHasher._check_encode_args). Printable ASCII.
const SALT = /^[\x21-\x23\x25-\x7e]{1,128}$/
const SALT_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
const PBKDF2_BYTES = { pbkdf2_sha256: 32, pbkdf2_sha1: 20 } as const
const SCRYPT_BYTES = 64

function fieldsOf(encoded: string, names: readonly string[]): string[] {
  const fields = encoded.split('$')
  if (fields.length !== names.length) {
    throw new InvalidHashError(
      `expected ${names.length} "$"-separated fields (${names.join(', ')}), got ${fields.length}`,
    )
  }
  return fields
}

function saltField(text: string | undefined): string {
  if (text === undefined || !SALT.test(text))
    throw new InvalidHashError('salt is not 1-128 printable ASCII characters without "$"')
  return text
}

function parsePbkdf2(kind: 'pbkdf2_sha256' | 'pbkdf2_sha1', encoded: string): DjangoHash {
  const [, iterations, salt, hash] = fieldsOf(encoded, ['algorithm', 'iterations', 'salt', 'hash'])
  const decoded = decodePaddedBase64(hash as string, 'hash')
  if (decoded.length !== PBKDF2_BYTES[kind])
    throw new InvalidHashError(`hash is not ${PBKDF2_BYTES[kind]} bytes`)
  const count = decimalField(iterations, 'iterations')
  if (count < 1) throw new InvalidHashError('iterations must be at least 1')
  return { kind, iterations: count, salt: saltField(salt), hash: decoded }
}

/** `argon2` + argon2-cffi's PHC string: `argon2$argon2id$v=19$m=102400,t=2,p=8$<salt>$<hash>`. */
function parseArgon2(encoded: string): DjangoHash {
  const phc = parsePhc(encoded.slice('argon2'.length))
  if (phc.id !== 'argon2id' && phc.id !== 'argon2i' && phc.id !== 'argon2d') {
    throw new InvalidHashError('variant is not argon2id, argon2i or argon2d')
  }
  // Version 0x13 (19) since argon2-cffi 16 and Django 1.10; node:crypto computes no other.
  if (phc.version !== 19) throw new InvalidHashError('version is not v=19')
  if (!phc.salt || !phc.hash) throw new InvalidHashError('salt or hash missing')
  const params = argon2PhcParams(phc.params)
  return { kind: 'argon2', variant: phc.id, params, salt: phc.salt, hash: phc.hash }
}

function parseBcrypt(kind: 'bcrypt_sha256' | 'bcrypt', encoded: string): DjangoHash {
  const bcrypt = encoded.slice(kind.length + 1)
  return { kind, bcrypt, cost: parseBcryptHash(bcrypt).cost }
}

/** `scrypt$<N>$<salt>$<r>$<p>$<hash>` (ScryptPasswordHasher.encode). */
function parseScrypt(encoded: string): DjangoHash {
  const [, n, salt, r, p, hash] = fieldsOf(encoded, ['algorithm', 'N', 'salt', 'r', 'p', 'hash'])
  const decoded = decodePaddedBase64(hash as string, 'hash')
  if (decoded.length !== SCRYPT_BYTES) throw new InvalidHashError(`hash is not ${SCRYPT_BYTES} bytes`)
  const params = {
    ln: scryptLog2(decimalField(n, 'N'), 'N'),
    r: decimalField(r, 'r'),
    p: decimalField(p, 'p'),
  }
  return { kind: 'scrypt', salt: saltField(salt), params, hash: decoded }
}

function parseDjango(encoded: string): DjangoHash {
  const kind = DJANGO_FORMAT.exec(encoded)?.[1]
  if (kind === undefined) throw new InvalidHashError('django: not a Django password field this reader knows')
  return within(`django ${kind}`, () => {
    switch (kind) {
      case 'pbkdf2_sha256':
      case 'pbkdf2_sha1':
        return parsePbkdf2(kind, encoded)
      case 'argon2':
        return parseArgon2(encoded)
      case 'bcrypt_sha256':
      case 'bcrypt':
        return parseBcrypt(kind, encoded)
      default:
        return parseScrypt(encoded)
    }
  })
}

/** BCryptSHA256PasswordHasher: the hex of SHA-256 of the password, as ASCII bytes, is bcrypt's key. */
const sha256Hex = (password: Uint8Array) => utf8(createHash('sha256').update(password).digest('hex'))

interface Engines {
  readonly bcrypt: PasswordHasher | undefined
  readonly argon2: Argon2Engine | undefined
}

const bcryptKeyFor = (kind: 'bcrypt_sha256' | 'bcrypt', password: Uint8Array) =>
  kind === 'bcrypt_sha256' ? sha256Hex(password) : bcryptKey(password)

const pbkdf2Digest = (kind: 'pbkdf2_sha256' | 'pbkdf2_sha1') => (kind === 'pbkdf2_sha256' ? 'sha256' : 'sha1')

async function verifyDjango(engines: Engines, stored: DjangoHash, password: Uint8Array): Promise<boolean> {
  switch (stored.kind) {
    case 'pbkdf2_sha256':
    case 'pbkdf2_sha1': {
      const { iterations, hash } = stored
      const derived = await pbkdf2(
        pbkdf2Digest(stored.kind),
        password,
        utf8(stored.salt),
        iterations,
        hash.length,
      )
      return sameBytes(derived, hash)
    }
    case 'argon2': {
      const { variant, salt, params, hash } = stored
      return sameBytes(await argon2(engines.argon2, variant, password, salt, params, hash.length), hash)
    }
    case 'bcrypt_sha256':
    case 'bcrypt':
      return needBcrypt('django', engines.bcrypt).verify(stored.bcrypt, bcryptKeyFor(stored.kind, password))
    default:
      return sameBytes(await scrypt(password, utf8(stored.salt), stored.params, SCRYPT_BYTES), stored.hash)
  }
}

async function writeDjango(engines: Engines, like: DjangoHash, password: Uint8Array): Promise<string> {
  const salt = randomString(SALT_CHARS, 22)
  switch (like.kind) {
    case 'pbkdf2_sha256':
    case 'pbkdf2_sha1': {
      const hash = await pbkdf2(
        pbkdf2Digest(like.kind),
        password,
        utf8(salt),
        like.iterations,
        PBKDF2_BYTES[like.kind],
      )
      return `${like.kind}$${like.iterations}$${salt}$${encodePaddedBase64(hash)}`
    }
    case 'argon2': {
      const { m, t, p } = like.params
      const hash = await argon2(
        engines.argon2,
        like.variant,
        password,
        utf8(salt),
        like.params,
        like.hash.length,
      )
      return `argon2$${like.variant}$v=19$m=${m},t=${t},p=${p}$${encodeBase64(utf8(salt))}$${encodeBase64(hash)}`
    }
    case 'bcrypt_sha256':
    case 'bcrypt':
      return `${like.kind}$${await needBcrypt('django', engines.bcrypt).hash(bcryptKeyFor(like.kind, password))}`
    default: {
      const { ln, r, p } = like.params
      const hash = await scrypt(password, utf8(salt), like.params, SCRYPT_BYTES)
      return `scrypt$${2 ** ln}$${salt}$${r}$${p}$${encodePaddedBase64(hash)}`
    }
  }
}

function djangoSetting(stored: DjangoHash): Setting {
  switch (stored.kind) {
    case 'pbkdf2_sha256':
    case 'pbkdf2_sha1':
      return { variant: stored.kind, params: { iterations: stored.iterations } }
    case 'argon2':
      return { variant: `argon2 ${stored.variant}`, params: stored.params }
    case 'bcrypt_sha256':
    case 'bcrypt':
      return { variant: stored.kind, params: { cost: stored.cost } }
    default:
      return { variant: 'scrypt', params: stored.params }
  }
}

const djangoFormat = (engines: Engines): ForeignFormat<DjangoHash> => ({
  family: 'django',
  displayName: "Django's password hashers",
  wraps: 'node:crypto pbkdf2, scrypt, argon2; a bcrypt hasher',
  runsOn: 'threadpool',
  maxLength: 512,
  parse: parseDjango,
  verify: (stored, password) => verifyDjango(engines, stored, password),
  write: (like, password) => writeDjango(engines, like, password),
  setting: djangoSetting,
})

// Django 5.2's default hasher, PBKDF2PasswordHasher: pbkdf2_sha256 at 1,000,000 iterations.
const DJANGO_DEFAULT: DjangoHash = {
  kind: 'pbkdf2_sha256',
  iterations: 1_000_000,
  salt: 'x',
  hash: new Uint8Array(32),
}

export interface DjangoOptions {
  /** An authlab bcrypt hasher, for `bcrypt_sha256$…` and `bcrypt$…` hashes. */
  bcrypt?: PasswordHasher
  /** The argon2 engine for `argon2$…` hashes; defaults to Node's `crypto.argon2` (Node ≥ 24.7). */
  argon2?: Argon2Engine
  /**
   * A stored Django hash whose algorithm and parameters `hash` copies (and so the missing-user dummy
   * verify). Defaults to Django 5.2's default: pbkdf2_sha256, 1,000,000 iterations.
   */
  writeLike?: string
}

/**
 * Reads Django's stored passwords: `pbkdf2_sha256$`, `pbkdf2_sha1$`, `argon2$`, `bcrypt_sha256$`,
 * `bcrypt$` and `scrypt$`, each verified exactly as Django's own hasher checks it.
 */
export function django(options?: DjangoOptions): ForeignHasher {
  const checked = checkOptions('django', options, {
    bcrypt: { type: 'object' },
    argon2: { type: 'function' },
    writeLike: { type: 'string' },
  }) as DjangoOptions
  const format = djangoFormat({
    bcrypt: bcryptOption('django', checked.bcrypt),
    argon2: argon2Option('django', checked.argon2),
  })
  const like = likeOption(format, checked.writeLike) ?? DJANGO_DEFAULT
  return defineForeignHasher(format, like)
}
