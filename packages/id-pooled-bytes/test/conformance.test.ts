import { idGeneratorSuite } from '@authlab/conformance'
import { test } from 'vitest'

// The built module, as published (see idGeneratorSuite).
const built = new URL('../dist/esm/index.js', import.meta.url)
const { createIdGenerator }: typeof import('../src/index.js') = await import(built.href)

idGeneratorSuite({
  test,
  factory: createIdGenerator,
  workerModule: built,
})
