import { postgresStore } from '../../src/stores/postgres.js'
import { storeMatrixSuite } from '../matrix-suite.js'

await storeMatrixSuite(postgresStore)
