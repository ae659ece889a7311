import { mysqlStore } from '../../src/stores/mysql.js'
import { raceSuite } from '../race-suite.js'

raceSuite(mysqlStore)
