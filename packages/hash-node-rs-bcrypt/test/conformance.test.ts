import { hasherSuite } from '@authlab/conformance'
import { createHasher as nativeBcrypt } from '@authlab/hash-bcrypt'
import { test } from 'vitest'
import { createHasher } from '../src/index.js'

hasherSuite({ test, factory: createHasher, blockingParams: { cost: 13 }, peers: [nativeBcrypt({ cost: 4 })] })
