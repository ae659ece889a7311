import { memoryStore } from '../../src/stores/memory.js'
import { raceSuite } from '../race-suite.js'

raceSuite(memoryStore)
