import { postgresStore } from '../../src/stores/postgres.js'
import { raceSuite } from '../race-suite.js'

raceSuite(postgresStore)
