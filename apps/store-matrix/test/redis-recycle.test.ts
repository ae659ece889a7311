import type { SessionData } from 'express-session'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { FaultProxy } from '../src/fault/proxy.js'
import { isReachable, unreachableMessage } from '../src/index.js'
import { REDIS } from '../src/services.js'
import { call, type OpenStore } from '../src/stores/backend.js'
import { redisStore } from '../src/stores/redis.js'
import { OPERATION_TIMEOUT_MS } from '../src/stores/timeouts.js'

/**
 * A command that misses its deadline while node-redis is already reconnecting on its own (after a reset
 * or a refused connection) must not start a second connection loop: two sockets feeding one reply
 * decoder hand one command's reply to another, so a session reads another session's data or none, and
 * an acknowledged save is lost. Found as acknowledged sessions lost after `reset` and `stall` in the
 * save-before-reply fault cells on a loaded machine.
 */
let proxy: FaultProxy
let opened: OpenStore | undefined

beforeEach(async () => {
  if (!(await isReachable(REDIS))) expect.fail(unreachableMessage(REDIS))
  proxy = await FaultProxy.start(REDIS.port)
})

afterEach(async () => {
  await proxy.restore()
  await opened?.close()
  opened = undefined
  await proxy.close()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function session(visits: number): SessionData {
  return { cookie: { originalMaxAge: 60_000, expires: new Date(Date.now() + 60_000) }, visits } as SessionData
}

test('a deadline missed during node-redis reconnection leaves one connection, and every reply reaches its own command', async () => {
  opened = await redisStore.open(`recycle_${process.pid}`, { port: proxy.port })
  const { store } = opened
  const ids = Array.from({ length: 200 }, (_, i) => `s${i}`)
  for (const [i, id] of ids.entries()) await call((cb) => store.set(id, session(i), cb))

  // The connection is reset and new ones are refused: node-redis retries on its own backoff meanwhile.
  proxy.refuse()
  await sleep(100)
  const missed = call((cb) => store.get('s0', cb)).then(
    () => 'answered',
    (error: unknown) => `${(error as Error).name}: ${(error as Error).message}`,
  )
  await sleep(OPERATION_TIMEOUT_MS + 100)
  expect(await missed).toMatch(/^OperationTimeoutError/)
  // Connections are accepted again but their handshakes wait, long enough for node-redis's own retry
  // (at most a second apart) to come round while the store's reconnection is still in its handshake.
  await proxy.restore()
  proxy.stall()
  await sleep(1500)
  await proxy.restore()

  // Back to normal: once a read succeeds, a burst of reads of different sessions, each its own.
  for (let tries = 0; ; tries++) {
    const ok = await call((cb) => store.get('s1', cb)).then(
      () => true,
      () => false,
    )
    if (ok) break
    if (tries > 50) expect.fail('the store did not recover within 5 s of the restore')
    await sleep(100)
  }
  await sleep(500)
  const read = await Promise.all(
    ids.map((id) => call<SessionData & { visits?: number }>((cb) => store.get(id, cb as never))),
  )
  const wrong = read.flatMap((data, i) => (data?.visits === i ? [] : [`${ids[i]} read ${data?.visits}`]))
  expect(wrong).toEqual([])
  expect(proxy.connections, 'connections through the proxy').toBe(1)
}, 20_000)
