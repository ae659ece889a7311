import { mysqlStore } from '../../src/stores/mysql.js'
import { storeMatrixSuite } from '../matrix-suite.js'

await storeMatrixSuite(mysqlStore)
