import { randomBytes } from 'node:crypto'
import {
  base64urlIdShape,
  checkIdOptions,
  DEFAULT_ID_BYTES,
  defineIdGenerator,
  type IdGenerator,
  InvalidOptionError,
} from '@authlab/core'

export interface PooledBytesIdOptions {
  /** Random bytes per ID, a multiple of 3 (default 24). */
  bytes?: number
  /** IDs drawn per `randomBytes` call (default 128: @fastify/session's pool of 24 << 7 bytes). */
  idsPerRefill?: number
}

/**
 * A variant of @fastify/session's default technique: one `randomBytes` call fills a pool for 128 IDs,
 * and each ID is the base64url encoding of its own 24-byte slice, read in place (the framework copies
 * each slice into a fresh buffer first). `Buffer#toString(enc, start, end)` builds a new
 * flat string, so a surviving ID does not pin the pool; each ID still pays one call into C++.
 * A fresh pool replaces the old one rather than being refilled in place, so bytes are never reused.
 */
export function createIdGenerator(options?: PooledBytesIdOptions): IdGenerator {
  const { bytes = DEFAULT_ID_BYTES, idsPerRefill = 128 } = checkIdOptions(
    '@authlab/id-pooled-bytes',
    options,
    { idsPerRefill: { type: 'integer', min: 1 } },
  )
  const shape = base64urlIdShape(bytes)
  if (!Number.isSafeInteger(idsPerRefill) || idsPerRefill < 1 || idsPerRefill > 65_536) {
    throw new InvalidOptionError(
      `idsPerRefill must be an integer from 1 to 65536, got ${String(idsPerRefill)}`,
    )
  }
  const poolBytes = bytes * idsPerRefill
  let pool = randomBytes(poolBytes)
  let offset = 0
  return defineIdGenerator({
    info: {
      ...shape,
      name: '@authlab/id-pooled-bytes',
      displayName: 'randomBytes pool, sliced (variant)',
      wraps: `crypto.randomBytes(${poolBytes}) pool, toString('base64url', i, i + ${bytes})`,
      randomness: `OS-seeded CSPRNG (crypto.randomBytes), ${poolBytes}-byte pool`,
      poolBytes,
    },
    generate: () => {
      if (offset === poolBytes) {
        pool = randomBytes(poolBytes)
        offset = 0
      }
      const start = offset
      offset += bytes
      return pool.toString('base64url', start, offset)
    },
  })
}

/** A ready 24-byte generator: `fastify.register(session, { idGenerator: generateId, ... })`. */
export const generateId: IdGenerator = createIdGenerator()
