import { memorystoreStore } from '../../src/stores/memorystore.js'
import { storeMatrixSuite } from '../matrix-suite.js'

await storeMatrixSuite(memorystoreStore)
