import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FRAMEWORKS, type Framework, type RunningServer, send } from '../src/index.js'
import { ALICE, recordingOptions } from './fixtures.js'

const KB = 1024

/** A cookie in express-session's signed format, but signed with a key the server does not know. */
function signedWithWrongKey(id: string): string {
  const signature = createHmac('sha256', 'a-different-secret-of-more-than-32-chars')
    .update(id)
    .digest('base64')
  return `authlab.sid=${encodeURIComponent(`s:${id}.${signature.replace(/=+$/, '')}`)}`
}

const HOSTILE_COOKIES: readonly (readonly [string, string])[] = [
  ['garbage', 'authlab.sid=%E0%A4%A; =; ;;; x=%%; authlab.sid'],
  ['an unsigned ID', 'authlab.sid=QBJXzoUYvto7ttBPB0V5r5xjtO8523v7'],
  ['a wrongly signed ID', signedWithWrongKey('QBJXzoUYvto7ttBPB0V5r5xjtO8523v7')],
  ['a path-traversal ID', `authlab.sid=s:../../../../etc/passwd.${'A'.repeat(43)}`],
  ['a signed-looking path traversal', signedWithWrongKey('../../../tmp/authlab-owned')],
  ['a 12 KB value', `authlab.sid=s:${'A'.repeat(12 * KB)}.sig`],
  ['two session cookies', 'authlab.sid=s:one.sig; authlab.sid=s:two.sig'],
  ['a thousand other cookies', Array.from({ length: 1000 }, (_, i) => `c${i}=v`).join('; ')],
]

describe.each(Object.keys(FRAMEWORKS) as Framework[])('%s under hostile input', (framework) => {
  let server: RunningServer
  let roomy: RunningServer

  beforeAll(async () => {
    const { options } = await recordingOptions()
    server = await FRAMEWORKS[framework](options)
    // A header cap above 64 KB, so the overlong cookie reaches the session layer instead of Node's parser.
    roomy = await FRAMEWORKS[framework](options, { maxHeaderSize: 96 * KB })
  })
  afterAll(async () => {
    // The server must still be alive after everything below.
    expect((await send(server.url, { path: '/health' })).status).toBe(200)
    await Promise.all([server.close(), roomy.close()])
  })

  test.each(HOSTILE_COOKIES)('a cookie with %s gets a fresh session', async (_label, cookie) => {
    const response = await send(server.url, { cookie })
    expect(response.status).toBe(200)
    expect(response.json?.visits).toBe(1)
    expect(cookie).not.toContain(String(response.json?.id))
  })

  test('a tampered cookie (one character of the ID changed) gets a fresh session', async () => {
    const genuine = await send(server.url)
    const id = String(genuine.json?.id)
    const flipped = id.slice(0, -1) + (id.endsWith('A') ? 'B' : 'A')
    const response = await send(server.url, { cookie: genuine.sessionCookie?.replace(id, flipped) })
    expect(response.status).toBe(200)
    expect(response.json?.id).not.toBe(id)
    expect(response.json?.visits).toBe(1)
  })

  test('a 64 KB cookie is refused by the default header cap with 431', async () => {
    const response = await send(server.url, { cookie: `authlab.sid=s:${'A'.repeat(64 * KB)}.sig` })
    expect(response.status).toBe(431)
  })

  test('a 64 KB cookie under a larger header cap gets a fresh session', async () => {
    const response = await send(roomy.url, { cookie: `authlab.sid=s:${'A'.repeat(64 * KB)}.sig` })
    expect(response.status).toBe(200)
    expect(response.json?.visits).toBe(1)
  })

  test.each([
    ['an oversized body', { ...ALICE, padding: 'x'.repeat(8 * KB) }, {}, 413],
    ['malformed JSON', '{"username": "alice", "password": ', {}, 400],
    ['an object where a string belongs', { username: { $ne: null }, password: 'x' }, {}, 400],
    ['a prototype-pollution attempt', '{"__proto__": {"user": "alice"}}', {}, 400],
    ['a non-JSON content type', 'username=alice', { 'content-type': 'text/plain' }, 400],
  ])('POST /login with %s gets a 4xx and no session', async (_label, body, headers, status) => {
    const response = await send(server.url, { method: 'POST', path: '/login', body, headers })
    expect(response.status).toBe(status)
    const me = await send(server.url, { path: '/me', cookie: response.sessionCookie })
    expect(me.status).toBe(401)
  })
})
