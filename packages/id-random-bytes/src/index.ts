import { randomBytes } from 'node:crypto'
import {
  base64urlIdShape,
  checkIdOptions,
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
export function createIdGenerator(options?: RandomBytesIdOptions): IdGenerator {
  const { bytes = DEFAULT_ID_BYTES } = checkIdOptions('@authlab/id-random-bytes', options)
  const shape = base64urlIdShape(bytes)
  return defineIdGenerator({
    info: {
      ...shape,
      name: '@authlab/id-random-bytes',
      displayName: 'randomBytes per call',
      wraps: `crypto.randomBytes(${bytes}).toString('base64url')`,
      randomness: 'OS-seeded CSPRNG (OpenSSL RAND_bytes), one call per ID',
      poolBytes: 0,
    },
    generate: () => randomBytes(bytes).toString('base64url'),
  })
}

/** A ready 24-byte generator: `session({ genid: generateId })`. */
export const generateId: IdGenerator = createIdGenerator()
