import { idGeneratorSuite } from '@authlab/conformance'
import { test } from 'vitest'

// The built module, as published (see idGeneratorSuite).
const built = new URL('../dist/esm/index.js', import.meta.url)
const { createIdGenerator, uuidSymbolsAt }: typeof import('../src/index.js') = await import(built.href)

idGeneratorSuite({
  test,
  factory: createIdGenerator,
  // RFC 9562 §5.4: 122 random bits, below the default 128-bit minimum.
  minEntropyBits: 122,
  symbolsAt: uuidSymbolsAt,
  decode: (id) => Buffer.from(id.replaceAll('-', ''), 'hex'),
  workerModule: built,
})
