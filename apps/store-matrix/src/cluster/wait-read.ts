import { randomBytes } from 'node:crypto'
import type { SessionData } from 'express-session'
import { sleep } from '../concurrency.js'
import { call, type OpenStore } from '../stores/backend.js'
import type { ClusterOpenOptions } from '../stores/redis-cluster.js'
import { masterPortOfKey } from './control.js'

export interface WaitReadReport {
  /** How long the read of an existing session took, sent 100 ms after two writes to its master. */
  readonly readMs: number
  /** The read's error name, or undefined when it returned the session. */
  readonly readError?: string
  /** True when the read returned the session before both writes had settled. */
  readonly readBeforeWrites: boolean
  /** From the writes' start until both had settled (they are refused: WAIT cannot be satisfied). */
  readonly writesSettledMs: number
  readonly writeErrors: readonly string[]
}

const session = (visits: number): SessionData =>
  ({
    cookie: { originalMaxAge: 60_000, expires: new Date(Date.now() + 60_000) },
    visits,
  }) as unknown as SessionData

/** `count` session IDs whose keys (under `prefix`) live on the master at `port`. */
async function idsOnMaster(prefix: string, port: number, count: number): Promise<string[]> {
  const ids: string[] = []
  while (ids.length < count) {
    const id = randomBytes(9).toString('base64url')
    if ((await masterPortOfKey(prefix + id)) === port) ids.push(id)
  }
  return ids
}

/**
 * A read while writes wait on WAIT: one existing session, then two writes to its master with
 * `WAIT 2 <timeoutMs>` (each master has one replica, so WAIT runs to its timeout, as it does when the
 * shard's replica is stopped, without stopping a node others share), and a read of the existing session
 * 100 ms later. Redis blocks the connection a WAIT is sent on (Redis docs, WAIT): a read sent on it waits.
 */
export async function readDuringWait(
  open: (scope: string, options?: ClusterOpenOptions) => Promise<OpenStore>,
  timeoutMs = 1500,
): Promise<WaitReadReport> {
  const scope = `cluster_waitread_${randomBytes(4).toString('hex')}`
  // The existing session is written without WAIT (it could not be acknowledged here).
  const plain = await open(scope)
  const store = await open(scope, { wait: { replicas: 2, timeoutMs } })
  try {
    const prefix = `authlab:${scope}:`
    const master = await masterPortOfKey(`${prefix}existing`)
    const [first, second] = await idsOnMaster(prefix, master, 2)
    await call((done) => plain.store.set('existing', session(1), done))
    const started = performance.now()
    let writesSettledAt = Number.POSITIVE_INFINITY
    const writes = Promise.allSettled([
      call((done) => store.store.set(first as string, session(2), done)),
      call((done) => store.store.set(second as string, session(3), done)),
    ]).then((results) => {
      writesSettledAt = performance.now()
      return results
    })
    await sleep(100)
    const readStarted = performance.now()
    const read = await call<SessionData | null>((done) => store.store.get('existing', done)).then(
      (value) => ({ value, error: undefined }),
      (error: unknown) => ({ value: undefined, error: error instanceof Error ? error.name : String(error) }),
    )
    const readAt = performance.now()
    const results = await writes
    const found = (read.value as { visits?: number } | null | undefined)?.visits === 1
    return {
      readMs: readAt - readStarted,
      ...(read.error !== undefined
        ? { readError: read.error }
        : found
          ? {}
          : { readError: 'the session was not found' }),
      readBeforeWrites: found && readAt < writesSettledAt,
      writesSettledMs: writesSettledAt - started,
      writeErrors: results.flatMap((r) =>
        r.status === 'rejected' ? [String((r.reason as Error)?.message ?? r.reason)] : [],
      ),
    }
  } finally {
    await store.close()
    await plain.close()
  }
}
