import {
  base64urlLength,
  checkIdBytes,
  checkIdOptions,
  DEFAULT_ID_BYTES,
  defineIdGenerator,
  type IdGenerator,
} from '@authlab/core'
import { nanoid, urlAlphabet } from 'nanoid'

export interface NanoidIdOptions {
  /** Equivalent random bytes, a multiple of 3 (default 24 → nanoid size 32, 192 bits). */
  bytes?: number
}

/**
 * nanoid 5 with size 32. nanoid keeps a pool of random bytes (filled by `crypto.randomFillSync`,
 * 128 × size bytes) and maps each byte's low 6 bits through its own 64-symbol URL alphabet — uniform
 * because 256 is a multiple of 64 — so every character carries 6 bits.
 */
export function createIdGenerator(options?: NanoidIdOptions): IdGenerator {
  const { bytes = DEFAULT_ID_BYTES } = checkIdOptions('@authlab/id-nanoid', options)
  checkIdBytes(bytes)
  const size = base64urlLength(bytes)
  return defineIdGenerator({
    info: {
      name: '@authlab/id-nanoid',
      displayName: 'nanoid',
      wraps: `nanoid(${size})`,
      length: size,
      alphabet: urlAlphabet,
      entropyBits: size * 6,
      randomness: 'OS-seeded CSPRNG (crypto.randomFillSync), pool of 128 × size bytes',
      poolBytes: 128 * size,
      runsOn: 'main-thread',
    },
    generate: () => nanoid(size),
  })
}

/** A ready 32-character generator: `session({ genid: generateId })`. */
export const generateId: IdGenerator = createIdGenerator()
