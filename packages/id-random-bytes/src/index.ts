import { randomBytes } from 'node:crypto'
import {
  BASE64URL_ALPHABET,
  base64urlLength,
  checkIdBytes,
  DEFAULT_ID_BYTES,
  defineIdGenerator,
  type IdGenerator,
} from '@authlab/core'

export interface RandomBytesIdOptions {
  /** Random bytes per ID, a multiple of 3 (default 24: 192 bits, 32 characters). */
  bytes?: number
}

/**
 * The plain baseline: one `crypto.randomBytes` call per ID, encoded with Node's base64url codec.
 * Each call crosses into C++ twice (fill, encode) and allocates a Buffer that is thrown away.
 */
export function createIdGenerator({ bytes = DEFAULT_ID_BYTES }: RandomBytesIdOptions = {}): IdGenerator {
  checkIdBytes(bytes)
  return defineIdGenerator(
    {
      name: '@authlab/id-random-bytes',
      displayName: 'randomBytes per call',
      wraps: `crypto.randomBytes(${bytes}).toString('base64url')`,
      length: base64urlLength(bytes),
      alphabet: BASE64URL_ALPHABET,
      entropyBits: bytes * 8,
      randomness: 'OS-seeded CSPRNG (OpenSSL RAND_bytes), one call per ID',
      poolBytes: 0,
      runsOn: 'main-thread',
    },
    () => randomBytes(bytes).toString('base64url'),
  )
}

/** A ready 24-byte generator: `session({ genid: generateId })`. */
export const generateId: IdGenerator = createIdGenerator()
