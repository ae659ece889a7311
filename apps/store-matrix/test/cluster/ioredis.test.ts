import { randomBytes } from 'node:crypto'
import { InvalidOptionError } from '@authlab/core'
import type { SessionData } from 'express-session'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { call, type OpenedIoredisCluster, openIoredisClusterStore } from '../../src/index.js'
import { startClusterForTests } from '../cluster.js'

const startError = await startClusterForTests()

const session = (visits: number): SessionData =>
  ({
    cookie: { originalMaxAge: 60_000, expires: new Date(Date.now() + 60_000) },
    visits,
  }) as unknown as SessionData

describe('the ioredis 6 store on the Redis Cluster', () => {
  let opened: OpenedIoredisCluster
  const ids = Array.from({ length: 30 }, () => randomBytes(12).toString('base64url'))
  beforeAll(async () => {
    if (startError) return
    opened = await openIoredisClusterStore(`cluster_ioredis_${randomBytes(4).toString('hex')}`)
    for (const [index, id] of ids.entries()) await call((done) => opened.store.set(id, session(index), done))
  })
  afterAll(() => opened?.close())

  test('set, get, touch and destroy one session', async () => {
    if (startError) expect.fail(startError.message)
    expect(await call<SessionData | null>((done) => opened.store.get(ids[3] as string, done))).toMatchObject({
      visits: 3,
    })
    await call((done) => opened.store.touch(ids[3] as string, session(3), done))
    await call((done) => opened.store.destroy(ids[3] as string, done))
    expect(await call((done) => opened.store.get(ids[3] as string, done))).toBeNull()
    expect(await call((done) => opened.store.get('never-written', done))).toBeNull()
    await call((done) => opened.store.set(ids[3] as string, session(3), done))
  })

  test('all, length and storedIds read every master; clear empties them', async () => {
    const all = ((await call<SessionData[]>((done) => opened.store.all(done))) ?? []) as (SessionData & {
      id: string
    })[]
    expect(all.map((s) => s.id).sort()).toEqual([...ids].sort())
    expect(await call<number>((done) => opened.store.length(done))).toBe(ids.length)
    expect((await opened.storedIds()).sort()).toEqual([...ids].sort())
    await call((done) => opened.store.clear(done))
    expect(await opened.storedIds()).toEqual([])
  })

  test('a bad wait option is refused with a typed error', async () => {
    await expect(
      openIoredisClusterStore('cluster_bad_wait', { wait: { replicas: 0, timeoutMs: 100 } }),
    ).rejects.toBeInstanceOf(InvalidOptionError)
  })

  test('with wait, a write copied by a replica is acknowledged; one that too few copied fails', async () => {
    const copied = await openIoredisClusterStore(`cluster_ioredis_wait_${randomBytes(4).toString('hex')}`, {
      wait: { replicas: 1, timeoutMs: 500 },
    })
    // Each master has one replica: two can never acknowledge, so WAIT returns 1 after its timeout.
    const short = await openIoredisClusterStore(`cluster_ioredis_wait_${randomBytes(4).toString('hex')}`, {
      wait: { replicas: 2, timeoutMs: 50 },
    })
    try {
      await call((done) => copied.store.set('waited', session(1), done))
      expect(await call((done) => copied.store.get('waited', done))).toMatchObject({ visits: 1 })
      await expect(call((done) => short.store.set('unwaited', session(1), done))).rejects.toThrow(
        /WAIT: 1 of 2 replicas/,
      )
      await expect(call((done) => short.store.destroy('unwaited', done))).rejects.toThrow(
        /WAIT: 1 of 2 replicas/,
      )
    } finally {
      await Promise.all([copied.close(), short.close()])
    }
  })
})
