import { sqliteStore } from '../../src/stores/sqlite.js'
import { storeMatrixSuite } from '../matrix-suite.js'

await storeMatrixSuite(sqliteStore)
