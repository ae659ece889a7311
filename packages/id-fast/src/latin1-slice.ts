import { nodeBuffer } from './node-buffer.js'
import { type BuiltTechnique, fillRandom, type TechniqueShape } from './random.js'

/**
 * One `Buffer#latin1Slice` per ID, from a pool of ready base64url characters:
 * 1. One `crypto.getRandomValues` draws `bytes` bytes per ID, and Node's `Buffer` encodes the whole
 *    pool to base64url (RFC 4648 §5) and writes those ASCII characters into a second pool, natively.
 * 2. Each ID copies its `length` characters out into a new flat string: one call into C++, nothing
 *    pinned, every random bit used.
 * This is Bun's technique: there `String.fromCharCode` with 32 arguments converts each one in C++ and
 * `JSON.parse` made strings more slowly, so one copy per ID beat both (see chooseTechnique).
 */
export function latin1Slice({ bytes, length, ids }: TechniqueShape): BuiltTechnique {
  const Buffer = nodeBuffer()
  const random = Buffer.alloc(ids * bytes)
  const characters = Buffer.alloc(ids * length)
  let offset = characters.length
  return {
    generate: function generateId() {
      if (offset === characters.length) {
        fillRandom(random)
        characters.write(random.toString('base64url'), 0, 'latin1')
        offset = 0
      }
      const start = offset
      offset = start + length
      return characters.latin1Slice(start, offset)
    },
    wraps: `crypto.getRandomValues(${random.length}) → Buffer#toString('base64url') → Buffer#latin1Slice(${length} characters) per ID`,
    randomness: `OS-seeded CSPRNG (crypto.getRandomValues), ${random.length}-byte pool, every bit used`,
    poolBytes: random.length,
  }
}
