import { mysqlStore } from '../../src/stores/mysql.js'
import { faultSuite } from '../fault-suite.js'

faultSuite(mysqlStore)
