import { redisStore } from '../../src/stores/redis.js'
import { faultSuite } from '../fault-suite.js'

faultSuite(redisStore)
