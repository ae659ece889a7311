import { randomBytes } from 'node:crypto'
import type { SessionData } from 'express-session'
import { afterAll, expect, test } from 'vitest'
import {
  call,
  clusterNodes,
  masterPortOfKey,
  nodePid,
  type OpenedCluster,
  openClusterStore,
  replicasOnline,
} from '../../src/index.js'
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

const opened: OpenedCluster[] = []
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()))
})

// Redis blocks the connection a WAIT is sent on until it returns (Redis docs, WAIT), so a read queued on
// that connection waits too. One replica stopped: WAIT 1 1500 then takes its whole timeout per write.
test('with wait, a read of an existing session answers while two writes to its shard wait for a stopped replica', async () => {
  if (startError) expect.fail(startError.message)
  const wait = { replicas: 1, timeoutMs: 1500 }
  const scope = `cluster_waitread_${randomBytes(4).toString('hex')}`
  const store = await openClusterStore(scope, { wait })
  opened.push(store)
  const prefix = `authlab:${scope}:`
  const master = await masterPortOfKey(`${prefix}existing`)
  const [first, second] = await idsOnMaster(prefix, master, 2)
  await call((done) => store.store.set('existing', session(1), done))

  const nodes = await clusterNodes(master)
  const masterId = nodes.find((node) => node.port === master)?.id
  const replica = nodes.find((node) => node.role === 'replica' && node.masterId === masterId)
  if (replica === undefined) expect.fail(`master ${master} has no replica`)
  const pid = await nodePid(replica.port)
  process.kill(pid, 'SIGSTOP')
  try {
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
    const read = await call<SessionData>((done) => store.store.get('existing', done)).catch(
      (error: unknown) => error,
    )
    const readAt = performance.now()
    const results = await writes
    console.log(
      `read during WAIT: ${(readAt - readStarted).toFixed(1)} ms (${read instanceof Error ? read.name : 'ok'}); writes settled ${(writesSettledAt - started).toFixed(0)} ms after they were sent: ${results.map((r) => (r.status === 'rejected' ? String(r.reason?.message ?? r.reason) : 'ok')).join('; ')}`,
    )
    expect(read).toMatchObject({ visits: 1 })
    // The read answered while the writes still waited for the stopped replica: it did not queue behind WAIT.
    expect(readAt).toBeLessThan(writesSettledAt)
    // The writes no replica copied are refused, not acknowledged.
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected'])
  } finally {
    process.kill(pid, 'SIGCONT')
  }
  // The next test file must find every replica in sync again.
  const deadline = Date.now() + 30_000
  while (!(await replicasOnline()) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 200))
}, 60_000)
