import { expect, test } from 'vitest'
import { openClusterStore, openIoredisClusterStore, readDuringWait } from '../../src/index.js'
import { startClusterForTests } from '../cluster.js'

const startError = await startClusterForTests()

test.each([
  { client: 'node-redis', open: openClusterStore },
  { client: 'ioredis', open: openIoredisClusterStore },
])(
  '$client: with wait, a read of an existing session answers while two writes to its shard wait for WAIT',
  async ({ client, open }) => {
    if (startError) expect.fail(startError.message)
    const report = await readDuringWait(open)
    console.log(`${client}: ${JSON.stringify(report)}`)
    // The read returned the session while the writes still waited: it did not queue behind a WAIT.
    expect(report.readError).toBeUndefined()
    expect(report.readBeforeWrites).toBe(true)
    // The writes too few replicas copied are refused, not acknowledged.
    expect(report.writeErrors).toHaveLength(2)
  },
  60_000,
)
