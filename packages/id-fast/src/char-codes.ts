import { BASE64URL_ALPHABET, UnsupportedRuntimeError } from '@authlab/core'
import { type BuiltTechnique, fillRandom, type TechniqueShape } from './random.js'

/**
 * Maps a random byte to a base64url character code through its low 6 bits. Every 6-bit value is hit
 * by exactly 4 of the 256 bytes, so each character stays uniform (no modulo bias) and carries 6 bits.
 */
const CHAR_CODE_OF_BYTE = Uint8Array.from({ length: 256 }, (_, byte) =>
  BASE64URL_ALPHABET.charCodeAt(byte & 63),
)

/** The pool both character-code techniques draw from: one byte per character. */
const randomness = (poolBytes: number) =>
  `OS-seeded CSPRNG (crypto.getRandomValues), ${poolBytes}-byte pool, 6 of every 8 bits used`

/**
 * One `String.fromCharCode` call per ID with the character codes as arguments, unrolled by code
 * generation. In V8 that yields a flat, sequential string in one builtin call: no C++ transition per
 * ID (as `Buffer#toString` costs @fastify/session's pool), no concatenation chain, and, unlike slicing a
 * pre-encoded pool string, no sliced string that pins the whole pool for as long as one session lives.
 * Throws UnsupportedRuntimeError where the host refuses code generation: it throws an EvalError
 * (ECMA-262 HostEnsureCanCompileStrings); anything else is a bug and propagates.
 */
export function unrolledCharCodes({ length, ids }: TechniqueShape): BuiltTechnique {
  const poolBytes = ids * length
  const codes = Array.from({ length }, (_, k) => `c[p[i + ${k}]]`).join(', ')
  let factory: (...args: unknown[]) => () => string
  try {
    factory = new Function(
      'c',
      'fill',
      'fromCharCode',
      'poolBytes',
      `const p = new Uint8Array(poolBytes)
       let offset = poolBytes
       return function generateId() {
         if (offset === poolBytes) { fill(p); offset = 0 }
         const i = offset
         offset = i + ${length}
         return fromCharCode(${codes})
       }`,
    ) as typeof factory
  } catch (error) {
    if (!(error instanceof EvalError)) throw error
    throw new UnsupportedRuntimeError(
      '@authlab/id-fast: technique "unrolled" needs code generation (new Function), which this runtime refuses',
      { cause: error },
      'code generation from strings',
    )
  }
  return {
    generate: factory(CHAR_CODE_OF_BYTE, fillRandom, String.fromCharCode, poolBytes),
    wraps: `crypto.getRandomValues(${poolBytes}) pool → String.fromCharCode(${length} codes)`,
    randomness: randomness(poolBytes),
    poolBytes,
  }
}

/**
 * The same pool, table and single `String.fromCharCode` call, with the codes gathered by a loop and
 * spread: the same IDs from the same bytes as the unrolled call, for hosts that refuse code generation.
 */
export function loopCharCodes({ length, ids }: TechniqueShape): BuiltTechnique {
  const poolBytes = ids * length
  const pool = new Uint8Array(poolBytes)
  const codes: number[] = Array.from({ length }, () => 0)
  let offset = poolBytes
  return {
    generate: function generateId() {
      if (offset === poolBytes) {
        fillRandom(pool)
        offset = 0
      }
      for (let k = 0; k < length; k++) codes[k] = CHAR_CODE_OF_BYTE[pool[offset + k] as number] as number
      offset += length
      return String.fromCharCode(...codes)
    },
    wraps: `crypto.getRandomValues(${poolBytes}) pool → String.fromCharCode(${length} codes spread, no code generation)`,
    randomness: randomness(poolBytes),
    poolBytes,
  }
}
