import {
  BASE64URL_ALPHABET,
  base64urlIdShape,
  checkIdOptions,
  DEFAULT_ID_BYTES,
  defineIdGenerator,
  type IdGenerator,
  InvalidOptionError,
} from '@authlab/core'

export interface FastIdOptions {
  /** Equivalent random bytes per ID, a multiple of 3 (default 24 → 32 characters, 192 bits). */
  bytes?: number
  /** Bytes of CSPRNG output fetched per refill (default 16 KiB: 512 IDs per call into OpenSSL). */
  poolBytes?: number
}

/**
 * Web Crypto's `getRandomValues` fills at most 65,536 bytes per call (W3C Web Crypto, "getRandomValues":
 * QuotaExceededError above that), so a larger pool is filled in slices. It is the CSPRNG every runtime
 * here exposes alike (Node ≥ 19, Bun, Deno, browsers); in Node it is the same OpenSSL generator as
 * `crypto.randomFillSync`, so one file serves servers and browsers.
 */
function fill(pool: Uint8Array<ArrayBuffer>): void {
  for (let at = 0; at < pool.length; at += 65_536)
    globalThis.crypto.getRandomValues(pool.subarray(at, at + 65_536))
}

/**
 * Maps a random byte to a base64url character code through its low 6 bits. Every 6-bit value is hit
 * by exactly 4 of the 256 bytes, so each character stays uniform (no modulo bias) and carries 6 bits.
 */
const CHAR_CODE_OF_BYTE = Uint8Array.from({ length: 256 }, (_, byte) =>
  BASE64URL_ALPHABET.charCodeAt(byte & 63),
)

/**
 * Why it is fast, and why it is still safe:
 * - Randomness comes from one `crypto.getRandomValues` per 16 KiB (OpenSSL's CSPRNG in Node, ~5 GB/s here), so
 *   its cost per ID is a few nanoseconds; a consumed byte is never handed out twice.
 * - The string is built by one `String.fromCharCode` call with the 32 character codes as arguments,
 *   unrolled by code generation. That yields a flat, sequential V8 string in one builtin call: no C++
 *   transition per ID (as `Buffer#toString` costs @fastify/session's pool), no concatenation chain,
 *   and — unlike slicing a pre-encoded pool string — no sliced string that pins the whole pool in
 *   memory for as long as one session survives.
 * Where code generation is refused (edge runtimes, `node --disallow-code-generation-from-strings`),
 * the same pool and byte-to-character table feed a loop that spreads the codes into the same single
 * call: the same output, byte for byte, at a lower speed.
 * The price: 8 random bits are fetched per 6-bit character (33 % more CSPRNG output than base64), and
 * pooled bytes sit in process memory until used, exactly as in @fastify/session's and nanoid's pools.
 */
export function createIdGenerator(options?: FastIdOptions): IdGenerator {
  const { bytes = DEFAULT_ID_BYTES, poolBytes = 16 * 1024 } = checkIdOptions('@authlab/id-fast', options, {
    poolBytes: { type: 'integer', min: 1 },
  })
  const shape = base64urlIdShape(bytes)
  const { length } = shape
  if (
    !Number.isSafeInteger(poolBytes) ||
    poolBytes < length ||
    poolBytes % length !== 0 ||
    poolBytes > 1 << 24
  ) {
    throw new InvalidOptionError(
      `poolBytes must be a multiple of ${length} up to 16 MiB, got ${String(poolBytes)}`,
    )
  }
  const compiled = compileGenerator(length, poolBytes)
  const generate = compiled ?? plainGenerator(length, poolBytes)
  return defineIdGenerator({
    info: {
      ...shape,
      name: '@authlab/id-fast',
      displayName: 'authlab fast',
      wraps: `crypto.getRandomValues(${poolBytes}) pool → String.fromCharCode(${length} codes${compiled ? '' : ' spread, no code generation'})`,
      randomness: `OS-seeded CSPRNG (crypto.getRandomValues), ${poolBytes}-byte pool, 6 of every 8 bits used`,
      poolBytes,
    },
    generate,
  })
}

/**
 * The unrolled generator, or `undefined` where `new Function` is refused: the host throws an EvalError
 * (ECMA-262 HostEnsureCanCompileStrings); anything else is a bug and propagates.
 */
function compileGenerator(length: number, poolBytes: number): (() => string) | undefined {
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
    if (error instanceof EvalError) return undefined
    throw error
  }
  return factory(CHAR_CODE_OF_BYTE, fill, String.fromCharCode, poolBytes)
}

/** The same pool, table and single `String.fromCharCode` call, with the codes gathered by a loop. */
function plainGenerator(length: number, poolBytes: number): () => string {
  const pool = new Uint8Array(poolBytes)
  const codes: number[] = Array.from({ length }, () => 0)
  let offset = poolBytes
  return function generateId() {
    if (offset === poolBytes) {
      fill(pool)
      offset = 0
    }
    for (let k = 0; k < length; k++) codes[k] = CHAR_CODE_OF_BYTE[pool[offset + k] as number] as number
    offset += length
    return String.fromCharCode(...codes)
  }
}

/** A ready 32-character generator: `session({ genid: generateId })` or `{ idGenerator: generateId }`. */
export const generateId: IdGenerator = createIdGenerator()
