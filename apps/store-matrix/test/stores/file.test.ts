import { fileStore } from '../../src/stores/file.js'
import { storeMatrixSuite } from '../matrix-suite.js'

await storeMatrixSuite(fileStore)
