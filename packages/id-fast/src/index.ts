import {
  base64urlIdShape,
  checkIdOptions,
  DEFAULT_ID_BYTES,
  defineIdGenerator,
  type IdGenerator,
  InvalidOptionError,
  UnsupportedRuntimeError,
} from '@authlab/core'
import { loopCharCodes, unrolledCharCodes } from './char-codes.js'
import { jsonBatch } from './json-batch.js'
import { latin1Slice } from './latin1-slice.js'
import type { BuiltTechnique, TechniqueShape } from './random.js'
import {
  chooseTechnique,
  describeRuntime,
  FAST_ID_TECHNIQUES,
  type FastIdTechnique,
  jsonBatchRuns,
  type RuntimeDescription,
} from './runtime.js'

export {
  chooseTechnique,
  describeRuntime,
  FAST_ID_TECHNIQUES,
  type FastIdTechnique,
  type RuntimeDescription,
} from './runtime.js'

export interface FastIdOptions {
  /** Equivalent random bytes per ID, a multiple of 3 (default 24 → 32 characters, 192 bits). */
  bytes?: number
  /** Sizes the pool: each refill makes `poolBytes` ÷ ID length IDs (default 16 KiB → 512 IDs). */
  poolBytes?: number
  /** One technique instead of the one chosen for the running runtime (`chooseTechnique`). */
  technique?: FastIdTechnique
}

const NAME = '@authlab/id-fast'

/**
 * The fastest secure generator of flat base64url IDs this package found for the running runtime.
 * Every technique draws from the runtime's CSPRNG (`crypto.getRandomValues`) in bulk, never hands a
 * random bit out twice, and returns a flat string of its own, so a surviving ID pins no pool.
 * `describeRuntime` reads what the choice depends on, and `chooseTechnique` makes it (see there why).
 */
export function createIdGenerator(options?: FastIdOptions): IdGenerator {
  const {
    bytes = DEFAULT_ID_BYTES,
    poolBytes = 16 * 1024,
    technique,
  } = checkIdOptions(NAME, options, {
    poolBytes: { type: 'integer', min: 1 },
    technique: { type: 'string', values: FAST_ID_TECHNIQUES },
  })
  const shape = base64urlIdShape(bytes)
  const { length } = shape
  if (poolBytes < length || poolBytes % length !== 0 || poolBytes > 1 << 24) {
    throw new InvalidOptionError(
      `poolBytes must be a multiple of ${length} up to 16 MiB, got ${String(poolBytes)}`,
    )
  }
  const runtime = describeRuntime()
  const built = build(
    technique ?? chooseTechnique(runtime),
    { bytes, length, ids: poolBytes / length },
    runtime,
  )
  return defineIdGenerator({
    info: {
      ...shape,
      name: NAME,
      displayName: 'authlab fast',
      wraps: built.wraps,
      randomness: built.randomness,
      poolBytes: built.poolBytes,
    },
    generate: built.generate,
  })
}

function build(
  technique: FastIdTechnique,
  shape: TechniqueShape,
  runtime: RuntimeDescription,
): BuiltTechnique {
  switch (technique) {
    case 'json-batch':
      if (!jsonBatchRuns(runtime))
        throw unsupported(technique, 'TextEncoder, TextDecoder and Uint8Array#toBase64 or Node’s Buffer')
      return jsonBatch(shape, runtime.toBase64)
    case 'latin1-slice':
      if (!runtime.nodeBuffer) throw unsupported(technique, 'Node’s Buffer with latin1Slice (Node, Bun)')
      return latin1Slice(shape)
    case 'unrolled':
      return unrolledCharCodes(shape)
    case 'loop':
      return loopCharCodes(shape)
  }
}

const unsupported = (technique: FastIdTechnique, required: string) =>
  new UnsupportedRuntimeError(
    `${NAME}: technique "${technique}" needs ${required}, which this runtime lacks`,
    undefined,
    required,
  )

/** A ready 32-character generator: `session({ genid: generateId })` or `{ idGenerator: generateId }`. */
export const generateId: IdGenerator = createIdGenerator()
