import {
  checkOptions,
  encodeBase64,
  InvalidHashError,
  type PasswordHasher,
  parseBcryptHash,
  parsePhc,
} from '@authlab/core'
import {
  decodeHex,
  decodePaddedBase64,
  encodeHex,
  encodePaddedBase64,
  randomBytes,
  utf8,
} from './encoding.js'
import {
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
} from './kdf.js'
import { argon2PhcParams } from './php.js'

/**
 * Spring Security's `DelegatingPasswordEncoder` as `PasswordEncoderFactories.createDelegatingPasswordEncoder()`
 * builds it (spring-security crypto/…/factory/PasswordEncoderFactories.java): `{id}` then the
 * encoder's own output. The ids read here, with the encoders' settings the factory gives them.
 */
export const SPRING_FORMAT =
  /^\{(bcrypt|pbkdf2|pbkdf2@SpringSecurity_v5_8|scrypt|scrypt@SpringSecurity_v5_8|argon2|argon2@SpringSecurity_v5_8)\}/

type SpringId =
  | 'bcrypt'
  | 'pbkdf2'
  | 'pbkdf2@SpringSecurity_v5_8'
  | 'scrypt'
  | 'scrypt@SpringSecurity_v5_8'
  | 'argon2'
  | 'argon2@SpringSecurity_v5_8'

type SpringHash =
  | { id: 'bcrypt'; bcrypt: string; cost: number }
  | { id: 'pbkdf2' | 'pbkdf2@SpringSecurity_v5_8'; salt: Uint8Array; hash: Uint8Array }
  | {
      id: 'scrypt' | 'scrypt@SpringSecurity_v5_8'
      params: ScryptParams
      salt: Uint8Array
      derived: Uint8Array
    }
  | {
      id: 'argon2' | 'argon2@SpringSecurity_v5_8'
      variant: Argon2Variant
      params: Argon2Params
      salt: Uint8Array
      hash: Uint8Array
    }

/**
 * Pbkdf2PasswordEncoder: hex of the salt then the key, the salt length and PRF fixed by the id.
 * `{pbkdf2}` is `defaultsForSpringSecurity_v5_5()`: 8-byte salt, 185,000 iterations, HMAC-SHA1 with a
 * 256-bit key; `{pbkdf2@SpringSecurity_v5_8}`: 16-byte salt, 310,000 iterations, HMAC-SHA256, 256 bits.
 */
const PBKDF2 = {
  pbkdf2: { digest: 'sha1', saltBytes: 8, iterations: 185_000, keyBytes: 32 },
  'pbkdf2@SpringSecurity_v5_8': { digest: 'sha256', saltBytes: 16, iterations: 310_000, keyBytes: 32 },
} as const

// SCryptPasswordEncoder's key length is 32 bytes in both factory settings (v4_1 and v5_8): matches()
// derives that many, so a stored key of another length never matches.
const SCRYPT_KEY_BYTES = 32

/** SCryptPasswordEncoder: `$<hex of ln<<16 | r<<8 | p>$<base64 salt>$<base64 key>`. */
function parseScrypt(id: 'scrypt' | 'scrypt@SpringSecurity_v5_8', body: string): SpringHash {
  const parts = body.split('$')
  if (parts.length !== 4 || parts[0] !== '') throw new InvalidHashError('expected "$params$salt$key"')
  if (!/^[0-9a-fA-F]{1,8}$/.test(parts[1] as string))
    throw new InvalidHashError('params are not 1-8 hex digits')
  const packed = Number.parseInt(parts[1] as string, 16)
  const params = { ln: (packed >>> 16) & 0xffff, r: (packed >>> 8) & 0xff, p: packed & 0xff }
  if (params.ln < 1 || params.r < 1 || params.p < 1) throw new InvalidHashError('a scrypt parameter is zero')
  const salt = decodePaddedBase64(parts[2] as string, 'salt')
  const derived = decodePaddedBase64(parts[3] as string, 'key')
  if (salt.length < 1 || salt.length > 128) throw new InvalidHashError('salt is not 1-128 bytes')
  if (derived.length !== SCRYPT_KEY_BYTES) throw new InvalidHashError(`key is not ${SCRYPT_KEY_BYTES} bytes`)
  return { id, params, salt, derived }
}

/** Argon2PasswordEncoder (Argon2EncodingUtils): a PHC string in unpadded standard base64. */
function parseArgon2(id: 'argon2' | 'argon2@SpringSecurity_v5_8', body: string): SpringHash {
  const phc = parsePhc(body)
  if (phc.id !== 'argon2id' && phc.id !== 'argon2i' && phc.id !== 'argon2d') {
    throw new InvalidHashError('variant is not argon2id, argon2i or argon2d')
  }
  // Without "v=" Argon2EncodingUtils reads version 0x10, which node:crypto does not compute.
  if (phc.version !== 19) throw new InvalidHashError('version is not v=19')
  if (!phc.salt || !phc.hash) throw new InvalidHashError('salt or hash missing')
  return { id, variant: phc.id, params: argon2PhcParams(phc.params), salt: phc.salt, hash: phc.hash }
}

function parseSpring(encoded: string): SpringHash {
  const id = SPRING_FORMAT.exec(encoded)?.[1] as SpringId | undefined
  if (id === undefined) throw new InvalidHashError('spring-security: not a {id} this reader knows')
  const body = encoded.slice(id.length + 2)
  return within(`spring-security {${id}}`, () => {
    switch (id) {
      case 'bcrypt':
        return { id, bcrypt: body, cost: parseBcryptHash(body).cost }
      case 'pbkdf2':
      case 'pbkdf2@SpringSecurity_v5_8': {
        const { saltBytes, keyBytes } = PBKDF2[id]
        const bytes = decodeHex(body, 'hex salt and key')
        if (bytes.length !== saltBytes + keyBytes)
          throw new InvalidHashError(`not ${saltBytes + keyBytes} bytes of salt and key`)
        return { id, salt: bytes.slice(0, saltBytes), hash: bytes.slice(saltBytes) }
      }
      case 'scrypt':
      case 'scrypt@SpringSecurity_v5_8':
        return parseScrypt(id, body)
      default:
        return parseArgon2(id, body)
    }
  })
}

interface Engines {
  readonly bcrypt: PasswordHasher | undefined
  readonly argon2: Argon2Engine | undefined
  /** Pbkdf2PasswordEncoder's secret, appended to the salt (`EncodingUtils.concatenate(salt, secret)`). */
  readonly pbkdf2Secret: Uint8Array
}

async function pbkdf2Key(engines: Engines, id: keyof typeof PBKDF2, salt: Uint8Array, password: Uint8Array) {
  const { digest, iterations, keyBytes } = PBKDF2[id]
  return pbkdf2(digest, password, Uint8Array.of(...salt, ...engines.pbkdf2Secret), iterations, keyBytes)
}

async function verifySpring(engines: Engines, stored: SpringHash, password: Uint8Array): Promise<boolean> {
  switch (stored.id) {
    case 'bcrypt':
      return needBcrypt('springSecurity', engines.bcrypt).verify(stored.bcrypt, bcryptKey(password))
    case 'pbkdf2':
    case 'pbkdf2@SpringSecurity_v5_8':
      return sameBytes(await pbkdf2Key(engines, stored.id, stored.salt, password), stored.hash)
    case 'scrypt':
    case 'scrypt@SpringSecurity_v5_8':
      return sameBytes(await scrypt(password, stored.salt, stored.params, SCRYPT_KEY_BYTES), stored.derived)
    default: {
      const { variant, salt, params, hash } = stored
      return sameBytes(await argon2(engines.argon2, variant, password, salt, params, hash.length), hash)
    }
  }
}

async function writeSpring(engines: Engines, like: SpringHash, password: Uint8Array): Promise<string> {
  switch (like.id) {
    case 'bcrypt':
      return `{bcrypt}${await needBcrypt('springSecurity', engines.bcrypt).hash(bcryptKey(password))}`
    case 'pbkdf2':
    case 'pbkdf2@SpringSecurity_v5_8': {
      const salt = randomBytes(PBKDF2[like.id].saltBytes)
      return `{${like.id}}${encodeHex(salt)}${encodeHex(await pbkdf2Key(engines, like.id, salt, password))}`
    }
    case 'scrypt':
    case 'scrypt@SpringSecurity_v5_8': {
      const { ln, r, p } = like.params
      const salt = randomBytes(like.salt.length)
      const derived = await scrypt(password, salt, like.params, SCRYPT_KEY_BYTES)
      const packed = ((ln << 16) | (r << 8) | p).toString(16)
      return `{${like.id}}$${packed}$${encodePaddedBase64(salt)}$${encodePaddedBase64(derived)}`
    }
    default: {
      const { variant, params, hash } = like
      const salt = randomBytes(like.salt.length)
      const tag = await argon2(engines.argon2, variant, password, salt, params, hash.length)
      return `{${like.id}}$${variant}$v=19$m=${params.m},t=${params.t},p=${params.p}$${encodeBase64(salt)}$${encodeBase64(tag)}`
    }
  }
}

function springSetting(stored: SpringHash): Setting {
  switch (stored.id) {
    case 'bcrypt':
      return { variant: '{bcrypt}', params: { cost: stored.cost } }
    case 'pbkdf2':
    case 'pbkdf2@SpringSecurity_v5_8':
      return { variant: `{${stored.id}}`, params: { iterations: PBKDF2[stored.id].iterations } }
    case 'scrypt':
    case 'scrypt@SpringSecurity_v5_8':
      return { variant: `{${stored.id}}`, params: stored.params }
    default:
      return { variant: `{${stored.id}} ${stored.variant}`, params: stored.params }
  }
}

const springFormat = (engines: Engines): ForeignFormat<SpringHash> => ({
  family: 'spring-security',
  displayName: "Spring Security's DelegatingPasswordEncoder",
  wraps: 'node:crypto pbkdf2, scrypt, argon2; a bcrypt hasher',
  runsOn: 'threadpool',
  maxLength: 512,
  parse: parseSpring,
  verify: (stored, password) => verifySpring(engines, stored, password),
  write: (like, password) => writeSpring(engines, like, password),
  setting: springSetting,
})

export interface SpringSecurityOptions {
  /** An authlab bcrypt hasher, for `{bcrypt}` hashes (Spring's default encoder). */
  bcrypt?: PasswordHasher
  /** The argon2 engine for `{argon2}` hashes; defaults to Node's `crypto.argon2` (Node ≥ 24.7). */
  argon2?: Argon2Engine
  /** The secret an app gave its Pbkdf2PasswordEncoder, if any (the factory's encoders use none). */
  pbkdf2Secret?: string
  /**
   * A stored `{id}…` hash whose encoder and parameters `hash` copies. Defaults to Spring's default,
   * `{bcrypt}` at the bcrypt hasher's cost, or `{pbkdf2@SpringSecurity_v5_8}` when no bcrypt is given.
   */
  writeLike?: string
}

/** Reads Spring Security's `{bcrypt}`, `{pbkdf2}`, `{scrypt}` and `{argon2}` hashes (and their `@SpringSecurity_v5_8` ids). */
export function springSecurity(options?: SpringSecurityOptions): ForeignHasher {
  const checked = checkOptions('springSecurity', options, {
    bcrypt: { type: 'object' },
    argon2: { type: 'function' },
    pbkdf2Secret: { type: 'string' },
    writeLike: { type: 'string' },
  }) as SpringSecurityOptions
  const bcrypt = bcryptOption('springSecurity', checked.bcrypt)
  const format = springFormat({
    bcrypt,
    argon2: argon2Option('springSecurity', checked.argon2),
    pbkdf2Secret: utf8(checked.pbkdf2Secret ?? ''),
  })
  const fallback: SpringHash = bcrypt
    ? { id: 'bcrypt', bcrypt: '', cost: Number(bcrypt.info.params.cost) }
    : { id: 'pbkdf2@SpringSecurity_v5_8', salt: new Uint8Array(16), hash: new Uint8Array(32) }
  return defineForeignHasher(format, likeOption(format, checked.writeLike) ?? fallback)
}
