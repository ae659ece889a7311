import { memoryStore } from '../../src/stores/memory.js'
import { storeMatrixSuite } from '../matrix-suite.js'

await storeMatrixSuite(memoryStore)
