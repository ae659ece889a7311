import { idGeneratorSuite } from '@authlab/conformance'
import { test } from 'vitest'
import { createIdGenerator, uuidSymbolsAt } from '../src/index.js'

idGeneratorSuite({
  test,
  factory: createIdGenerator,
  // RFC 9562 §5.4: 122 random bits, below the default 128-bit minimum.
  minEntropyBits: 122,
  symbolsAt: uuidSymbolsAt,
  decode: (id) => Buffer.from(id.replaceAll('-', ''), 'hex'),
  workerModule: new URL('../dist/esm/index.js', import.meta.url),
})
