import { randomBytes } from 'node:crypto'
import type { SessionData } from 'express-session'
import { expect, test } from 'vitest'
import { call, masterPortOfKey, openClusterStore, openIoredisClusterStore } from '../../src/index.js'
import { startClusterForTests } from '../cluster.js'

const startError = await startClusterForTests()

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

// Redis blocks the connection a WAIT is sent on until it returns (Redis docs, WAIT), so a read queued on
// that connection waits too. A WAIT that cannot be satisfied runs to its timeout, as it does when the
// shard's replica is stopped; asking for 2 replicas where each master has one does that without
// stopping a node of the cluster that other test files share.
test.each([
  { client: 'node-redis', open: openClusterStore },
  { client: 'ioredis', open: openIoredisClusterStore },
])(
  '$client: with wait, a read of an existing session answers while two writes to its shard wait for WAIT',
  async ({ client, open }) => {
    if (startError) expect.fail(startError.message)
    const scope = `cluster_waitread_${randomBytes(4).toString('hex')}`
    // The existing session is written without WAIT (it could not be acknowledged here).
    const plain = await open(scope)
    const store = await open(scope, { wait: { replicas: 2, timeoutMs: 1500 } })
    try {
      const prefix = `authlab:${scope}:`
      const master = await masterPortOfKey(`${prefix}existing`)
      const [first, second] = await idsOnMaster(prefix, master, 2)
      await call((done) => plain.store.set('existing', session(1), done))

      const started = performance.now()
      let writesSettledAt = 0
      const writes = Promise.allSettled([
        call((done) => store.store.set(first as string, session(2), done)),
        call((done) => store.store.set(second as string, session(3), done)),
      ]).then((results) => {
        writesSettledAt = performance.now()
        return results
      })
      await new Promise((resolve) => setTimeout(resolve, 100))
      const readStarted = performance.now()
      const read = await call<SessionData | null>((done) => store.store.get('existing', done)).catch(
        (error: unknown) => error,
      )
      const readAt = performance.now()
      const results = await writes
      console.log(
        `${client}: read during WAIT ${(readAt - readStarted).toFixed(1)} ms (${read instanceof Error ? read.name : 'ok'}); writes settled ${(writesSettledAt - started).toFixed(0)} ms after they were sent: ${results.map((r) => (r.status === 'rejected' ? String(r.reason?.message ?? r.reason) : 'ok')).join('; ')}`,
      )
      expect(read).toMatchObject({ visits: 1 })
      // The read answered while the writes still waited: it did not queue behind a WAIT.
      expect(readAt).toBeLessThan(writesSettledAt)
      // The writes too few replicas copied are refused, not acknowledged.
      expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected'])
    } finally {
      await store.close()
      await plain.close()
    }
  },
  60_000,
)
