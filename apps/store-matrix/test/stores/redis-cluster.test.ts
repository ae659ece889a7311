import { redisClusterStore } from '../../src/stores/redis-cluster.js'
import { startClusterForTests } from '../cluster.js'
import { storeMatrixSuite } from '../matrix-suite.js'

await startClusterForTests()
await storeMatrixSuite(redisClusterStore)
