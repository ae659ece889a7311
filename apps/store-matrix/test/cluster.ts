import { ensureCluster } from '../src/index.js'

/**
 * Starts the local Redis Cluster when it is not up (scripts/redis-cluster.sh, the same as `.ci/run`),
 * so the cluster tests run on a machine where redis-server is installed but nothing started it. A
 * cluster that will not form is printed here and fails the tests that need it.
 */
export async function startClusterForTests(): Promise<Error | undefined> {
  try {
    await ensureCluster()
    return undefined
  } catch (error) {
    console.error(String(error))
    return error as Error
  }
}
