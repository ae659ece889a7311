import { OPERATION_TIMEOUT_MS, withDeadline } from './timeouts.js'

/** A master whose leftover session keys `close()` could not remove, and why. */
export interface UncleanedNode {
  /** The master's address, `host:port`. */
  readonly node: string
  readonly reason: string
}

/**
 * What a cluster store's `close()` reports. Its connections are closed whatever happened; keys left on
 * a master that could not be reached stay until their TTL (every session key has one), and are listed.
 */
export interface ClusterCloseOutcome {
  readonly uncleaned: readonly UncleanedNode[]
}

/** One master's part of the cleanup: list and delete the namespace's keys on it. */
export interface MasterCleanup {
  readonly node: string
  remove(): Promise<void>
}

/**
 * Runs every master's cleanup at once, each bounded by the operation deadline: a master that is down
 * (connection refused, reconnecting) or frozen (connection open, no answer) would otherwise hold the
 * cleanup, and the clients' close after it, for ever. Never rejects: what failed is returned.
 */
export async function removeLeftovers(masters: readonly MasterCleanup[]): Promise<UncleanedNode[]> {
  const results = await Promise.allSettled(
    masters.map((master) => withDeadline(master.remove(), OPERATION_TIMEOUT_MS, () => {})),
  )
  return results.flatMap((result, index) =>
    result.status === 'fulfilled'
      ? []
      : [{ node: (masters[index] as MasterCleanup).node, reason: reasonOf(result.reason) }],
  )
}

/**
 * Closes a client gracefully (QUIT) within the operation deadline, then tears down whatever is left. Not
 * gracefully when `graceful` is false: after a master failed to answer the cleanup, its QUIT would only
 * wait out the deadline once more.
 */
export async function closeWithin(
  close: () => Promise<unknown>,
  destroy: () => void,
  graceful = true,
): Promise<void> {
  if (graceful)
    await withDeadline(Promise.resolve().then(close), OPERATION_TIMEOUT_MS, () => {}).catch(() => {})
  // A graceful close that failed or timed out can leave node connections retrying; after a close that
  // worked there is nothing left and the teardown is a no-op (or throws that the client is closed).
  try {
    destroy()
  } catch {}
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}
