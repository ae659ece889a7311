import { nodeBuffer } from './node-buffer.js'
import { type BuiltTechnique, fillRandom, type TechniqueShape } from './random.js'

const QUOTE = 0x22
const COMMA = 0x2c
const SPACE = 0x20
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d

interface WithToBase64 {
  toBase64(options: { alphabet: 'base64url'; omitPadding: boolean }): string
}
const BASE64URL = { alphabet: 'base64url', omitPadding: true } as const

/**
 * A whole refill of IDs from one `JSON.parse`, with no code generation:
 * 1. One `crypto.getRandomValues` draws `bytes + 3` bytes per ID.
 * 2. They are encoded to base64url natively (RFC 4648 §5; `Uint8Array#toBase64` from ECMAScript 2026,
 *    else Node's `Buffer`) and written as ASCII into a text of slots of `length + 4` characters.
 * 3. JSON syntax is written over 4 characters of each slot, `"` + the ID's `length` characters + `", `,
 *    so the text reads `["…", "…", …]`. Those 4 characters (24 bits) are dropped; every ID character
 *    left is one whole 6-bit group of fresh CSPRNG output: uniform, independent, never reused.
 * 4. `JSON.parse` (ECMA-404) makes every ID as a separate flat string in one builtin call; V8 copies a
 *    string value out of the source, so a surviving ID pins neither the text nor the other IDs.
 * Per ID that leaves an array read; the price is 3 extra random bytes per ID and a few short-lived
 * copies of the refill's text.
 */
export function jsonBatch({ bytes, length, ids }: TechniqueShape, toBase64: boolean): BuiltTechnique {
  const slot = length + 4
  const random = new Uint8Array(ids * (bytes + 3))
  const text = new Uint8Array(ids * slot + 2)
  const slots = text.subarray(1, ids * slot + 1)
  text[0] = OPEN_BRACKET
  text[ids * slot + 1] = CLOSE_BRACKET
  const encode = toBase64
    ? () => (random as unknown as WithToBase64).toBase64(BASE64URL)
    : (
        (view) => () =>
          view.toString('base64url')
      )(nodeBuffer().from(random.buffer, 0, random.length))
  const encoder = new TextEncoder()
  const decoder = new TextDecoder()
  let batch: string[] = []
  let next = ids
  function refill(): void {
    fillRandom(random)
    encoder.encodeInto(encode(), slots)
    for (let at = 1; at < text.length - 1; at += slot) {
      text[at] = QUOTE
      text[at + length + 1] = QUOTE
      text[at + length + 2] = COMMA
      text[at + length + 3] = SPACE
    }
    // The last ID is followed by no comma.
    text[ids * slot - 1] = SPACE
    batch = JSON.parse(decoder.decode(text)) as string[]
    next = 0
  }
  return {
    generate: function generateId() {
      if (next === ids) refill()
      return batch[next++] as string
    },
    wraps: `crypto.getRandomValues(${random.length}) → ${toBase64 ? 'Uint8Array#toBase64' : "Buffer#toString('base64url')"} → JSON.parse of ${ids} IDs per refill`,
    randomness: `OS-seeded CSPRNG (crypto.getRandomValues), ${random.length}-byte pool, ${bytes} of every ${bytes + 3} bytes used`,
    poolBytes: random.length,
  }
}
