import { InvalidOptionError } from '@authlab/core'

/**
 * `WAIT <replicas> <timeoutMs>` after every session write and destroy: it is reported only once that many
 * replicas hold it, and fails otherwise (Redis docs, WAIT: "the replication is asynchronous"; a master
 * that dies before its replica copied a write loses it at failover).
 */
export interface ClusterWait {
  readonly replicas: number
  readonly timeoutMs: number
}

/** Refuses a `wait` that would wait for nothing or forever. */
export function checkWait(wait: ClusterWait | undefined): void {
  if (wait === undefined) return
  if (
    Number.isSafeInteger(wait?.replicas) &&
    wait.replicas >= 1 &&
    Number.isSafeInteger(wait.timeoutMs) &&
    wait.timeoutMs >= 1
  )
    return
  // WAIT with a timeout of 0 blocks forever (Redis docs, WAIT), and 0 replicas waits for nothing.
  throw new InvalidOptionError('wait must be { replicas, timeoutMs } with two positive integers')
}

/** Fails a write fewer replicas copied than `wait` asks for. */
export function requireReplicas(acknowledged: unknown, wait: ClusterWait): void {
  if (Number(acknowledged) < wait.replicas)
    throw new Error(
      `WAIT: ${String(acknowledged)} of ${wait.replicas} replicas copied the write in ${wait.timeoutMs} ms`,
    )
}

/** Seconds a session lives in the store: to its cookie's expiry, else a day (connect-redis' default). */
export function sessionTtlSeconds(session: { cookie?: { expires?: Date | string | null } }): number {
  const expires = session.cookie?.expires
  if (!expires) return 86_400
  return Math.ceil((Number(new Date(expires)) - Date.now()) / 1000)
}
