import { randomInt } from 'node:crypto'
import {
  BASE64URL_ALPHABET,
  base64urlIdShape,
  checkIdOptions,
  DEFAULT_ID_BYTES,
  defineIdGenerator,
  type IdGenerator,
} from '@authlab/core'

export interface RandomIntIdOptions {
  /** Equivalent random bytes per ID, a multiple of 3 (default 24 → 32 characters of 6 bits). */
  bytes?: number
}

/**
 * One `crypto.randomInt(0, 64)` per character, the alternative tried in the @fastify/session PR.
 * The body is code-generated once as a single unrolled concatenation (no loop, no array), as the PR
 * did, so the comparison measures randomInt itself: 32 calls into its rejection-sampling path per ID.
 */
export function createIdGenerator(options?: RandomIntIdOptions): IdGenerator {
  const { bytes = DEFAULT_ID_BYTES } = checkIdOptions('@authlab/id-random-int', options)
  const shape = base64urlIdShape(bytes)
  const { length } = shape
  const body = `return ${Array.from({ length }, () => 'a[r(64)]').join(' + ')}`
  const generate = new Function('a', 'r', `return function generateId() { ${body} }`)(
    [...BASE64URL_ALPHABET],
    (max: number) => randomInt(max),
  ) as () => string
  return defineIdGenerator(
    {
      ...shape,
      name: '@authlab/id-random-int',
      displayName: 'randomInt per character',
      wraps: `crypto.randomInt(0, 64) × ${length}, unrolled`,
      randomness: 'OS-seeded CSPRNG via crypto.randomInt (Node caches 6 KiB of random bytes for it)',
      poolBytes: 6 * 1024,
    },
    generate,
  )
}

/** A ready 32-character generator: `session({ genid: generateId })`. */
export const generateId: IdGenerator = createIdGenerator()
