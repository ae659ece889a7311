import { redisStore } from '../../src/stores/redis.js'
import { raceSuite } from '../race-suite.js'

raceSuite(redisStore)
