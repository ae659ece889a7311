import type { StoreBackend } from './backend.js'
import { fileStore } from './file.js'
import { ioredisClusterStore } from './ioredis-cluster.js'
import { memoryStore } from './memory.js'
import { memorystoreStore } from './memorystore.js'
import { mysqlStore } from './mysql.js'
import { postgresStore } from './postgres.js'
import { redisStore } from './redis.js'
import { redisClusterStore } from './redis-cluster.js'
import { sqliteStore } from './sqlite.js'

export * from './backend.js'
export type { ClusterCloseOutcome, UncleanedNode } from './cluster-close.js'
export { type ClusterWait, UnconfirmedWriteError } from './cluster-wait.js'
export {
  IoredisClusterStore,
  ioredisClusterStore,
  type OpenedIoredisCluster,
  openIoredisClusterStore,
} from './ioredis-cluster.js'
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

/** Stores outside the matrix, for the cluster's fault column only: another client on the same cluster. */
export const CLUSTER_CLIENT_STORES: readonly StoreBackend[] = [ioredisClusterStore]
