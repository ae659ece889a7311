import { connect, type Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, test } from 'vitest'
import { type HelperProcess, startHelperProcess } from '../src/process.js'
import { onepwBody, signedHeaders } from './fixtures.js'

// Attacks at the socket level, against the helper running as its own process from its build.
const running: HelperProcess[] = []
const sockets: Socket[] = []
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  for (const helper of running.splice(0)) {
    helper.signal('SIGKILL')
    await helper.exited
  }
})

async function helperProcess(options: Parameters<typeof startHelperProcess>[0]) {
  const helper = await startHelperProcess(options)
  running.push(helper)
  return helper
}

interface Opened {
  socket: Socket
  /** Everything the helper sent, resolved when it closes the connection. */
  closed: Promise<string>
  /** Everything the helper sent, resolved when it ends its side (its FIN). */
  ended: Promise<string>
}

/** A raw connection that has sent `head` (request line and headers) and nothing else. */
async function openWith(url: string, head: string, { allowHalfOpen = false } = {}): Promise<Opened> {
  const { hostname, port } = new URL(url)
  const socket = connect({ port: Number(port), host: hostname, allowHalfOpen })
  sockets.push(socket)
  let received = ''
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => {
    received += chunk
  })
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)))
  const ended = new Promise<string>((resolve) => {
    socket.once('end', () => resolve(received))
    socket.once('close', () => resolve(received))
  })
  socket.on('error', () => {})
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve())
    socket.once('error', reject)
  })
  socket.write(head)
  return { socket, closed, ended }
}

function requestHead(body: string, headers: Record<string, string>, contentLength = body.length): string {
  // connection: close, so the helper closes the socket once it has answered.
  const lines = Object.entries({
    ...headers,
    host: 'helper',
    connection: 'close',
    'content-length': String(contentLength),
  })
  return `POST / HTTP/1.1\r\n${lines.map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`
}

/** Resolves with what the helper sent, or with undefined if the connection is still open after `ms`. */
const closedWithin = (opened: Opened, ms: number) =>
  Promise.race([opened.closed, sleep(ms).then(() => undefined)])

/** Resolves with what the helper sent once it has ended its side, or with undefined if not after `ms`. */
const endedWithin = (opened: Opened, ms: number) =>
  Promise.race([opened.ended, sleep(ms).then(() => undefined)])

describe('the helper process at the socket level', () => {
  test('a captured request whose body arrives after its nonce could be forgotten is refused', async () => {
    // The shortest window the helper accepts, so the nonce entry (two windows) expires quickly.
    const windowMs = 1000
    const helper = await helperProcess({ replayWindowMs: windowMs })
    const body = onepwBody()
    const headers = signedHeaders(body, { secret: helper.secret })
    const head = requestHead(body, headers)

    const first = await openWith(helper.url, head + body)
    expect(await first.closed).toMatch(/^HTTP\/1\.1 200/)

    // The replay's headers arrive while the timestamp is fresh; its body only once the first request's
    // nonce entry has expired (two windows after it was recorded).
    const replay = await openWith(helper.url, head)
    await sleep(2 * windowMs + 400)
    replay.socket.write(body)
    const answer = await replay.closed
    expect(answer).toMatch(/^HTTP\/1\.1 401/)
    expect(answer).toContain('timestamp outside the replay window')
  })

  test('connections that send headers and never their body are closed within the request timeout', async () => {
    const requestTimeoutMs = 1000
    const helper = await helperProcess({
      connections: { headersTimeoutMs: requestTimeoutMs, requestTimeoutMs, maxConnections: 50 },
    })
    // Well-formed headers announcing a body that never comes: any signature passes the header check.
    const body = onepwBody()
    const held = await Promise.all(
      Array.from({ length: 10 }, () =>
        openWith(helper.url, requestHead(body, { ...signedHeaders(body), 'content-length': '4000' }, 4000)),
      ),
    )
    // Node checks the timeout once a second; five more seconds is room for a loaded machine.
    const answers = await Promise.all(held.map((opened) => closedWithin(opened, requestTimeoutMs + 6000)))
    expect(answers.filter((answer) => answer === undefined)).toHaveLength(0)
    for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 408|^$/)
  })

  test('connections that send headers and one byte of their body are closed within the request timeout', async () => {
    const requestTimeoutMs = 1000
    const helper = await helperProcess({
      connections: { headersTimeoutMs: requestTimeoutMs, requestTimeoutMs, maxConnections: 50 },
    })
    // A complete head announcing 4,000 bytes of JSON, one byte of it, then nothing. The attacker never
    // closes its side (allowHalfOpen), so only the helper can end the connection.
    const body = onepwBody()
    const head = requestHead(body, signedHeaders(body, { secret: helper.secret }), 4000)
    const held = await Promise.all(
      Array.from({ length: 10 }, () => openWith(helper.url, `${head}{`, { allowHalfOpen: true })),
    )
    // The timeout plus Node's one-second check, with ten times the timeout of room for a loaded machine:
    // a bound on a configured timeout, past which the connection counts as held forever.
    const ended = await Promise.all(held.map((opened) => endedWithin(opened, 10 * requestTimeoutMs)))
    expect(ended.filter((answer) => answer === undefined)).toHaveLength(0)
    for (const answer of ended) expect(answer).toMatch(/^HTTP\/1\.1 408|^$/)
    // Ended, not merely half-closed: the helper has let go of the socket, so bytes sent now are answered
    // with a reset, which fails the write after them (a socket the helper still held would take both).
    for (const opened of held) opened.socket.write('"more body"')
    await sleep(200)
    for (const opened of held) opened.socket.write('"and more"')
    const closed = await Promise.all(held.map((opened) => closedWithin(opened, 10 * requestTimeoutMs)))
    expect(closed.filter((answer) => answer === undefined)).toHaveLength(0)
  })

  test('past maxConnections a new connection is closed at once, and the helper still answers after', async () => {
    const helper = await helperProcess({ connections: { maxConnections: 3 } })
    const body = onepwBody()
    const stalled = requestHead(body, { ...signedHeaders(body), 'content-length': '4000' }, 4000)
    const kept = await Promise.all(Array.from({ length: 3 }, () => openWith(helper.url, stalled)))
    // Let the helper accept the three before the fourth arrives.
    await sleep(200)
    const extra = await openWith(helper.url, stalled)
    expect(await closedWithin(extra, 3000)).toBe('')
    for (const opened of kept) opened.socket.destroy()
    await Promise.all(kept.map((opened) => opened.closed))
    await sleep(100)
    const health = await fetch(`${helper.url}/health`)
    expect(health.status).toBe(200)
  })
})
