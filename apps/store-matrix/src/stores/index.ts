import type { StoreBackend } from './backend.js'
import { fileStore } from './file.js'
import { memoryStore } from './memory.js'
import { memorystoreStore } from './memorystore.js'
import { mysqlStore } from './mysql.js'
import { postgresStore } from './postgres.js'
import { redisStore } from './redis.js'
import { redisClusterStore } from './redis-cluster.js'
import { sqliteStore } from './sqlite.js'

export * from './backend.js'
export { redisStore } from './redis.js'
export {
  type ClusterOpenOptions,
  ClusterRedisStore,
  type OpenedCluster,
  openClusterStore,
  redisClusterStore,
} from './redis-cluster.js'

/** Every store in the matrix: the embedded ones first, then the server-backed ones. */
export const STORES: readonly StoreBackend[] = [
  memoryStore,
  memorystoreStore,
  fileStore,
  sqliteStore,
  redisStore,
  redisClusterStore,
  postgresStore,
  mysqlStore,
]
