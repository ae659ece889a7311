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
 * Where code generation is refused (edge runtimes, `node --disallow-code-generation-from-strings`), a
 * loop makes the same calls and the same concatenation.
 */
export function createIdGenerator(options?: RandomIntIdOptions): IdGenerator {
  const { bytes = DEFAULT_ID_BYTES } = checkIdOptions('@authlab/id-random-int', options)
  const shape = base64urlIdShape(bytes)
  const { length } = shape
  const compiled = compileGenerator(length)
  const generate = compiled ?? plainGenerator(length)
  return defineIdGenerator({
    info: {
      ...shape,
      name: '@authlab/id-random-int',
      displayName: 'randomInt per character',
      wraps: `crypto.randomInt(0, 64) × ${length}, ${compiled ? 'unrolled' : 'in a loop (no code generation)'}`,
      randomness: 'OS-seeded CSPRNG via crypto.randomInt (Node caches 6 KiB of random bytes for it)',
      poolBytes: 6 * 1024,
    },
    generate,
  })
}

const ALPHABET = [...BASE64URL_ALPHABET]
const randomSymbol = (max: number) => randomInt(max)

/**
 * The unrolled generator, or `undefined` where `new Function` is refused: the host throws an EvalError
 * (ECMA-262 HostEnsureCanCompileStrings); anything else is a bug and propagates.
 */
function compileGenerator(length: number): (() => string) | undefined {
  const body = `return ${Array.from({ length }, () => 'a[r(64)]').join(' + ')}`
  let factory: (...args: unknown[]) => () => string
  try {
    factory = new Function('a', 'r', `return function generateId() { ${body} }`) as typeof factory
  } catch (error) {
    if (error instanceof EvalError) return undefined
    throw error
  }
  return factory(ALPHABET, randomSymbol)
}

function plainGenerator(length: number): () => string {
  return function generateId() {
    let id = ''
    for (let k = 0; k < length; k++) id += ALPHABET[randomSymbol(64)]
    return id
  }
}

/** A ready 32-character generator: `session({ genid: generateId })`. */
export const generateId: IdGenerator = createIdGenerator()
