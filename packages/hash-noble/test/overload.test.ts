import { boundedDerivationsSuite } from '@authlab/conformance'
import { test } from 'vitest'
import { createHasher } from '../src/index.js'

boundedDerivationsSuite({ test, createHasher, defaultMax: 4 })
