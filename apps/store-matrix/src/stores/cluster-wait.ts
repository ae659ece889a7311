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

/**
 * A session write that `wait` asked to confirm and that was not confirmed: too few replicas copied it, or
 * the connection it went out on failed before its `WAIT` answered. It may or may not have been applied;
 * it was not acknowledged.
 */
export class UnconfirmedWriteError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'UnconfirmedWriteError'
  }
}

/** Fails a write fewer replicas copied than `wait` asks for. */
export function requireReplicas(acknowledged: unknown, wait: ClusterWait): void {
  if (Number(acknowledged) < wait.replicas)
    throw new UnconfirmedWriteError(
      `WAIT: ${String(acknowledged)} of ${wait.replicas} replicas copied the write in ${wait.timeoutMs} ms`,
    )
}

/** Seconds a session lives in the store: to its cookie's expiry, else a day (connect-redis' default). */
export function sessionTtlSeconds(session: { cookie?: { expires?: Date | string | null } }): number {
  const expires = session.cookie?.expires
  if (!expires) return 86_400
  return Math.ceil((Number(new Date(expires)) - Date.now()) / 1000)
}

/**
 * Sends `write` and then `WAIT` down one connection to one master, as one pipeline (preceded by `ASKING`
 * when `asking`); resolves with WAIT's reply, rejects with the first error reply or the connection's error.
 */
export type WriteThenWait = (write: readonly string[], wait: ClusterWait, asking: boolean) => Promise<unknown>

/** Where a client sends a write and its WAIT (one implementation per client library). */
export interface WriteRoute {
  /** The connection to the master of `key`'s slot, by the client's slot map. */
  toKey(key: string): Promise<WriteThenWait>
  /** The connection to the master announced as `host:port` in a MOVED or ASK reply, if the client knows it. */
  toAddress(address: string): Promise<WriteThenWait | undefined>
  /** Told about a MOVED reply: the client's slot map is out of date. */
  slotMoved(): void
}

/** MOVED and ASK replies followed per write; a third is a slot map still moving: the write fails. */
const MAX_REDIRECTIONS = 2

export function waitCommand(wait: ClusterWait): string[] {
  return ['WAIT', String(wait.replicas), String(wait.timeoutMs)]
}

/** `MOVED <slot> <host:port>` or `ASK <slot> <host:port>` (Redis Cluster specification, "Redirection and resharding"). */
function redirectionOf(error: unknown): { readonly ask: boolean; readonly address: string } | undefined {
  const match = /^(MOVED|ASK) \d+ (\S+)$/.exec(error instanceof Error ? error.message : '')
  return match ? { ask: match[1] === 'ASK', address: match[2] as string } : undefined
}

/**
 * One session write, reported only once `wait.replicas` replicas hold it. WAIT counts the writes of the
 * connection it is sent on (Redis docs, WAIT; `replicationCountAcksByOffset(c->woff)` in Redis'
 * replication.c), so the write and its WAIT go out together on one connection to the master that
 * executes the write: never the write through the cluster client and the WAIT through whatever
 * connection serves the key when it is sent (a client rebuilt in between, a MOVED or ASK that sent the
 * write elsewhere, a reconnect: a WAIT on another connection can count an earlier offset that the replica
 * already holds). A MOVED or ASK is followed by sending both again to the node named. A connection that
 * fails before WAIT answers leaves the write unconfirmed: UnconfirmedWriteError, never an acknowledgement.
 */
export async function replicatedWrite(
  route: WriteRoute,
  key: string,
  write: readonly string[],
  wait: ClusterWait,
): Promise<void> {
  let target: Promise<WriteThenWait | undefined> = route.toKey(key)
  let asking = false
  for (let redirections = 0; ; redirections++) {
    let acknowledged: unknown
    try {
      const send = await target
      if (send === undefined) throw new Error('redirected to a node the client does not know')
      acknowledged = await send(write, wait, asking)
    } catch (error) {
      const redirection = redirectionOf(error)
      if (redirection === undefined || redirections === MAX_REDIRECTIONS)
        throw new UnconfirmedWriteError(`the write to ${key} was not confirmed: ${String(error)}`, {
          cause: error,
        })
      if (!redirection.ask) route.slotMoved()
      target = route.toAddress(redirection.address)
      asking = redirection.ask
      continue
    }
    requireReplicas(acknowledged, wait)
    return
  }
}
