import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FRAMEWORKS, type Framework, type RunningServer, send } from '../src/index.js'
import { ALICE, recordingOptions, SECRET } from './fixtures.js'

describe.each(Object.keys(FRAMEWORKS) as Framework[])('%s routes', (framework) => {
  let server: RunningServer
  let issued: string[]

  beforeAll(async () => {
    const fixture = await recordingOptions()
    issued = fixture.issued
    server = await FRAMEWORKS[framework](fixture.options)
  })
  afterAll(() => server.close())

  test('GET /health answers without touching the session', async () => {
    const before = issued.length
    const response = await send(server.url, { path: '/health' })
    expect(response.status).toBe(200)
    expect(response.json).toEqual({ status: 'ok' })
    expect(response.sessionCookie).toBeUndefined()
    expect(issued.length).toBe(before)
  })

  test('GET / creates a session with the generated ID and a signed cookie, then keeps it', async () => {
    const first = await send(server.url)
    expect(first.status).toBe(200)
    expect(first.json).toEqual({ id: issued.at(-1), visits: 1 })
    // express-session's cookie-signature format (HMAC-SHA256, unpadded base64), which @fastify/session
    // matches with cookiePrefix 's:'. Express percent-encodes the value, Fastify does not; both decode it.
    const [name, value = ''] = first.sessionCookie?.split('=') ?? []
    expect(name).toBe('authlab.sid')
    expect(decodeURIComponent(value)).toMatch(new RegExp(`^s:${issued.at(-1)}\\.[A-Za-z0-9+/]{43}$`))
    const second = await send(server.url, { cookie: first.sessionCookie })
    expect(second.json).toEqual({ id: first.json?.id, visits: 2 })
  })

  test('POST /login regenerates the session, and the pre-login ID is no longer accepted', async () => {
    const anonymous = await send(server.url)
    const login = await send(server.url, {
      method: 'POST',
      path: '/login',
      cookie: anonymous.sessionCookie,
      body: ALICE,
    })
    expect(login.status).toBe(200)
    expect(login.json?.user).toBe('alice')
    expect(login.json?.id).not.toBe(anonymous.json?.id)
    expect(login.json?.id).toBe(issued.at(-1))

    const me = await send(server.url, { path: '/me', cookie: login.sessionCookie })
    expect(me.status).toBe(200)
    expect(me.json).toEqual({ id: login.json?.id, user: 'alice' })

    const fixated = await send(server.url, { cookie: anonymous.sessionCookie })
    expect(fixated.json?.id).not.toBe(anonymous.json?.id)
    expect(fixated.json?.visits).toBe(1)
  })

  test('POST /logout destroys the session', async () => {
    const login = await send(server.url, { method: 'POST', path: '/login', body: ALICE })
    const logout = await send(server.url, { method: 'POST', path: '/logout', cookie: login.sessionCookie })
    expect(logout.status).toBe(204)
    const me = await send(server.url, { path: '/me', cookie: login.sessionCookie })
    expect(me.status).toBe(401)
  })

  test.each([
    ['a wrong password', { username: 'alice', password: 'wrong' }, 401],
    ['an unknown user', { username: 'mallory', password: 'whatever' }, 401],
    ['a missing password', { username: 'alice' }, 400],
    ['a non-string password', { username: 'alice', password: 12345 }, 400],
    ['an overlong password', { username: 'alice', password: 'x'.repeat(1025) }, 400],
    ['a password over bcrypt’s 72 bytes', { username: 'alice', password: 'é'.repeat(40) }, 400],
    ['a JSON array', [ALICE.username, ALICE.password], 400],
  ])('POST /login with %s answers %i and logs nobody in', async (_label, body, status) => {
    const response = await send(server.url, { method: 'POST', path: '/login', body })
    expect(response.status).toBe(status)
    const me = await send(server.url, { path: '/me', cookie: response.sessionCookie })
    expect(me.status).toBe(401)
  })

  test('the secret is checked before the server starts', async () => {
    const { options } = await recordingOptions()
    await expect(FRAMEWORKS[framework]({ ...options, secret: SECRET.slice(0, 31) })).rejects.toMatchObject({
      code: 'ERR_AUTHLAB_INVALID_OPTION',
    })
  })
})
