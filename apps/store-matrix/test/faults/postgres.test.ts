import { postgresStore } from '../../src/stores/postgres.js'
import { faultSuite } from '../fault-suite.js'

faultSuite(postgresStore)
