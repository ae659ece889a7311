import { connect } from 'node:net'
import session from 'express-session'
import { afterEach, describe, expect, test } from 'vitest'
import { FRAMEWORKS, type Framework, PrunedMemoryStore, type RunningServer, send } from '../src/index.js'
import { recordingOptions } from './fixtures.js'

const frameworks = Object.keys(FRAMEWORKS) as Framework[]

/** A MemoryStore whose `set` can be made to fail, as a store whose backend just went away would. */
class FlakyMemoryStore extends session.MemoryStore {
  failing = false
  override set(id: string, data: session.SessionData, callback?: (error?: unknown) => void): void {
    if (this.failing) {
      callback?.(new Error('backend unavailable'))
      return
    }
    super.set(id, data, callback)
  }
  count(): number {
    return Object.keys((this as unknown as { sessions: object }).sessions).length
  }
}

let running: RunningServer | undefined
afterEach(async () => {
  await running?.close()
  running = undefined
})

async function start(framework: Framework, store: session.Store, saveBeforeReply?: boolean) {
  const { options } = await recordingOptions()
  running = await FRAMEWORKS[framework]({ ...options, store, saveBeforeReply }, { headersTimeoutMs: 1000 })
  return running
}

describe.each(frameworks)('%s stores only sessions that carry something', (framework) => {
  test('a cookieless 401 on GET /me and a 404 store no session; GET / does', async () => {
    const store = new FlakyMemoryStore()
    const server = await start(framework, store)
    const me = await send(server.url, { path: '/me' })
    expect(me.status).toBe(401)
    expect(me.sessionCookie).toBeUndefined()
    const missing = await send(server.url, { path: '/no-such-route' })
    expect(missing.status).toBe(404)
    expect(store.count()).toBe(0)
    const created = await send(server.url)
    expect(created.status).toBe(200)
    expect(store.count()).toBe(1)
  })
})

describe.each(frameworks)('%s with a store whose writes fail', (framework) => {
  test('saveBeforeReply turns a failed write into a 500 with no session cookie', async () => {
    const store = new FlakyMemoryStore()
    const server = await start(framework, store, true)
    store.failing = true
    const reply = await send(server.url)
    expect(reply.status).toBe(500)
    store.failing = false
    const after = await send(server.url)
    expect(after.status).toBe(200)
    expect(store.count()).toBe(1)
  })

  test('without it, each framework keeps its own behaviour', async () => {
    const store = new FlakyMemoryStore()
    const server = await start(framework, store, false)
    store.failing = true
    const reply = await send(server.url)
    // express-session writes after answering, so its client is told 200 for a session that was never
    // stored; @fastify/session writes in onSend, before the status line goes out.
    expect(reply.status).toBe(framework === 'express' ? 200 : 500)
    expect(store.count()).toBe(0)
  })
})

describe.each(frameworks)('%s header timeout', (framework) => {
  test('a client that never finishes its headers is disconnected', async () => {
    const server = await start(framework, new session.MemoryStore())
    const { port } = new URL(server.url)
    const socket = connect(Number(port), '127.0.0.1')
    socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ')
    const received: Buffer[] = []
    socket.on('data', (chunk: Buffer) => received.push(chunk))
    // The server closes the socket itself (after a 408); without a header timeout this waits forever.
    await new Promise<void>((resolve) => socket.once('close', () => resolve()))
    expect(Buffer.concat(received).toString('latin1')).toMatch(/^HTTP\/1\.1 408 /)
  })
})

describe('PrunedMemoryStore', () => {
  test('sweeps sessions whose cookie has expired and keeps the others', async () => {
    const store = new PrunedMemoryStore(60_000)
    const set = (id: string, expires: Date) =>
      new Promise<void>((resolve) =>
        store.set(id, { cookie: { expires, originalMaxAge: 1000 } } as session.SessionData, () => resolve()),
      )
    await set('expired', new Date(Date.now() - 1))
    await set('live', new Date(Date.now() + 60_000))
    const sessions = (store as unknown as { sessions: object }).sessions
    expect(Object.keys(sessions)).toEqual(['expired', 'live'])
    expect(await store.prune()).toBe(1)
    expect(Object.keys(sessions)).toEqual(['live'])
    store.close()
  })
})
