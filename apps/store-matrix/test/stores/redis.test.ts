import { redisStore } from '../../src/stores/redis.js'
import { storeMatrixSuite } from '../matrix-suite.js'

await storeMatrixSuite(redisStore)
