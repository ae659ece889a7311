import { idGeneratorSuite } from '@authlab/conformance'
import { test } from 'vitest'
import { createIdGenerator } from '../src/index.js'

idGeneratorSuite({
  test,
  factory: createIdGenerator,
  workerModule: new URL('../dist/esm/index.js', import.meta.url),
})
