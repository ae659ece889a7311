import type { SessionData } from 'express-session'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { sleep } from '../src/concurrency.js'
import { FaultProxy } from '../src/fault/proxy.js'
import { isReachable, unreachableMessage } from '../src/index.js'
import { REDIS } from '../src/services.js'
import { call, type OpenStore } from '../src/stores/backend.js'
import { redisStore } from '../src/stores/redis.js'
import { CONNECT_TIMEOUT_MS, OPERATION_TIMEOUT_MS } from '../src/stores/timeouts.js'

/**
 * How the Redis store reconnects. A connection attempt that overlaps another one must not leave two
 * sockets feeding one client's reply decoder (replies then reach the wrong commands: a session reads
 * another's data, or none, and an acknowledged save is lost), and a handshake that is never answered
 * must not leave the store waiting for ever.
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

function session(visits: number): SessionData {
  return { cookie: { originalMaxAge: 60_000, expires: new Date(Date.now() + 60_000) }, visits } as SessionData
}

const IDS = Array.from({ length: 200 }, (_, i) => `s${i}`)

async function openWithSessions(): Promise<OpenStore> {
  opened = await redisStore.open(`recycle_${process.pid}_${Date.now()}`, { port: proxy.port })
  for (const [i, id] of IDS.entries()) await call((cb) => opened?.store.set(id, session(i), cb))
  return opened
}

/** Reads until one read succeeds, polling every 100 ms; fails after `limitMs`. */
async function recovery(store: OpenStore['store'], limitMs: number): Promise<void> {
  const start = Date.now()
  while (Date.now() - start < limitMs) {
    const ok = await call((cb) => store.get('s1', cb)).then(
      () => true,
      () => false,
    )
    if (ok) return
    await sleep(100)
  }
  expect.fail(`the store did not recover within ${limitMs} ms`)
}

/** After recovery: one connection through the proxy, and 200 concurrent reads each get their own session. */
async function expectOneConnectionAndOwnReplies(store: OpenStore['store']): Promise<void> {
  await sleep(300)
  const read = await Promise.all(
    IDS.map((id) => call<SessionData & { visits?: number }>((cb) => store.get(id, cb as never))),
  )
  const wrong = read.flatMap((data, i) => (data?.visits === i ? [] : [`${IDS[i]} read ${data?.visits}`]))
  expect(wrong).toEqual([])
  expect(proxy.connections, 'connections through the proxy').toBe(1)
}

test('reconnecting after a refused backend, through handshakes left waiting, keeps one connection', async () => {
  const { store } = await openWithSessions()
  // Reset, then refused for longer than a command's deadline: reads fail meanwhile, quickly.
  proxy.refuse()
  await sleep(100)
  const failed = await call((cb) => store.get('s0', cb)).then(
    () => 'answered',
    (error: unknown) => (error as Error).name,
  )
  expect(failed).not.toBe('answered')
  await sleep(OPERATION_TIMEOUT_MS)
  // Connections are accepted again, but their handshakes wait while reads keep arriving.
  await proxy.restore()
  proxy.stall()
  const during = Array.from({ length: 10 }, (_, i) =>
    sleep(i * 150).then(() => call((cb) => store.get('s2', cb))),
  )
  await sleep(1500)
  await proxy.restore()
  await Promise.allSettled(during)
  await recovery(store, 5000)
  await expectOneConnectionAndOwnReplies(store)
}, 20_000)

test('a handshake that is never answered is abandoned: the store recovers after a long black hole', async () => {
  const { store } = await openWithSessions()
  // The open connection and every new one swallow their bytes for longer than a command's deadline.
  proxy.blackhole()
  const missed = call((cb) => store.get('s0', cb)).then(
    () => 'answered',
    (error: unknown) => (error as Error).name,
  )
  await sleep(OPERATION_TIMEOUT_MS + 500)
  expect(await missed).toBe('OperationTimeoutError')
  // A read now opens a connection into the black hole, whose handshake never completes.
  const intoTheHole = call((cb) => store.get('s1', cb)).catch(() => undefined)
  await sleep(500)
  await proxy.restore()
  await intoTheHole
  // Black-holed connections stay dead after the restore; only a new connection can answer.
  await recovery(store, CONNECT_TIMEOUT_MS + OPERATION_TIMEOUT_MS + 3000)
  await expectOneConnectionAndOwnReplies(store)
}, 20_000)
