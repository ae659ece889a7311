import { randomBytes } from 'node:crypto'
import { request } from 'node:http'
import { createHasher } from '@authlab/hash-bcryptjs'
import { createUserDirectory, FRAMEWORKS, type Framework, send, sessionCookieOf } from '@authlab/servers'
import session from 'express-session'
import { afterEach, describe, expect, test } from 'vitest'
import { guardLogout, memoryTombstones, type SessionStoreLike } from '../src/index.js'

const SECRET = 'test-secret-at-least-32-characters-long'
const ALICE = { username: 'alice', password: 'correct horse battery staple' }
const MAX_AGE_MS = 60_000

/** express-session's MemoryStore whose writes can be held, as a slow store holds a request in flight. */
class HoldableStore extends session.MemoryStore {
  private held: (() => void)[] = []
  holding = false
  reads = 0
  override get(id: string, callback: (error: unknown, session?: session.SessionData | null) => void): void {
    this.reads++
    super.get(id, callback)
  }
  override set(id: string, data: session.SessionData, callback?: (error?: unknown) => void): void {
    if (this.holding) this.held.push(() => super.set(id, data, callback))
    else super.set(id, data, callback)
  }
  get heldWrites(): number {
    return this.held.length
  }
  release(): void {
    for (const write of this.held.splice(0)) write()
  }
}

const closing: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()))
})

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5))
}

/**
 * POST /login that hands over the session cookie as soon as the response head arrives, before the body
 * has: express-session writes the head, and all of the body but its last byte, before the store has
 * confirmed the session's save (expressjs/session index.js, `writetop` in the `res.end` wrapper).
 */
function loginWatchingTheHead(url: string) {
  let cookie!: Promise<string | undefined>
  const done = new Promise<void>((resolve, reject) => {
    cookie = new Promise((resolveCookie) => {
      const outgoing = request(
        new URL('/login', url),
        { method: 'POST', headers: { 'content-type': 'application/json' } },
        (response) => {
          resolveCookie(sessionCookieOf(response.headers['set-cookie']))
          response.resume()
          response.on('end', resolve)
        },
      )
      outgoing.on('error', reject)
      outgoing.end(JSON.stringify(ALICE))
    })
  })
  return { cookie, done }
}

describe.each(['fastify', 'express'] as Framework[])('guardLogout under %s', (framework) => {
  test('a logout sent as soon as the login hands over its cookie sticks, before the login has been saved', async () => {
    const inner = new HoldableStore()
    const store = guardLogout(inner as SessionStoreLike, { maxAgeMs: MAX_AGE_MS })
    const users = await createUserDirectory(createHasher({ cost: 4 }), { [ALICE.username]: ALICE.password })
    const server = await FRAMEWORKS[framework]({
      generateId: () => randomBytes(16).toString('base64url'),
      users,
      secret: SECRET,
      store: store as session.Store,
      maxAgeMs: MAX_AGE_MS,
    })
    closing.push(() => server.close())

    inner.holding = true
    const login = loginWatchingTheHead(server.url)
    await until(() => inner.heldWrites > 0)
    // express-session sends the cookie while the save is held; @fastify/session only once it is stored.
    const early = await Promise.race([
      login.cookie,
      new Promise((resolve) => setTimeout(resolve, 200, 'none')),
    ])
    inner.holding = false
    if (early === 'none') inner.release()
    const cookie = await login.cookie
    expect(cookie).toBeDefined()
    const readsBefore = inner.reads
    const logout = send(server.url, { method: 'POST', path: '/logout', cookie })
    // The logout has read the store (and, while the save is held, found nothing) before the save lands.
    await until(() => inner.reads > readsBefore)
    inner.release()
    expect((await logout).status).toBe(204)
    await login.done
    expect((await send(server.url, { path: '/me', cookie })).status).toBe(401)
  })

  test('anonymous logouts cannot push out the tombstone of a real one', async () => {
    const inner = new HoldableStore()
    // A registry far smaller than the anonymous logouts sent below: if they added tombstones,
    // alice's would be dropped before her held write lands.
    const store = guardLogout(inner as SessionStoreLike, {
      maxAgeMs: MAX_AGE_MS,
      tombstones: memoryTombstones({ maxEntries: 4 }),
    })
    const users = await createUserDirectory(createHasher({ cost: 4 }), { [ALICE.username]: ALICE.password })
    const server = await FRAMEWORKS[framework]({
      generateId: () => randomBytes(16).toString('base64url'),
      users,
      secret: SECRET,
      store: store as session.Store,
      maxAgeMs: MAX_AGE_MS,
    })
    closing.push(() => server.close())

    const login = await send(server.url, { method: 'POST', path: '/login', body: ALICE })
    const cookie = login.sessionCookie
    expect(login.status).toBe(200)
    // A request with alice's cookie whose session write is still on its way when she logs out.
    inner.holding = true
    const inFlight = send(server.url, { path: '/', cookie })
    await until(() => inner.heldWrites > 0)
    inner.holding = false
    expect((await send(server.url, { method: 'POST', path: '/logout', cookie })).status).toBe(204)
    for (let i = 0; i < 12; i++)
      expect((await send(server.url, { method: 'POST', path: '/logout' })).status).toBe(204)
    inner.release()
    await inFlight
    const me = await send(server.url, { path: '/me', cookie })
    expect(me.status).toBe(401)
  })
})
