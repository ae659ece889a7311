import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createStretcher } from '@authlab/stretch-onepw'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createRemoteScrypt, type RemoteScryptOptions, SIGNATURE_HEADERS, signatureOf } from '../src/index.js'

const SECRET = 'a-shared-secret-of-at-least-32-bytes!'
const SALT = 'identity.mozilla.com/picl/v1/scrypt'

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void
let handler: Handler = () => {}
let requests: { headers: IncomingMessage['headers']; body: string }[] = []
const server = createServer((request, response) => {
  let body = ''
  request.on('data', (chunk) => {
    body += chunk
  })
  request.on('end', () => {
    requests.push({ headers: request.headers, body })
    handler(request, body, response)
  })
})
let url = ''
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

/** A stand-in helper whose answer is `buflen` bytes of 0x07. */
const answer = (response: ServerResponse, body: string, output?: string) => {
  const { buflen } = JSON.parse(body) as { buflen: number }
  response.setHeader('content-type', 'application/json')
  response.end(JSON.stringify({ output: output ?? '07'.repeat(buflen) }))
}
const status = (response: ServerResponse, code: number, message: string, headers = {}) => {
  response.writeHead(code, { 'content-type': 'application/json', ...headers })
  response.end(JSON.stringify({ statusCode: code, message }))
}

function client(options: Partial<RemoteScryptOptions> = {}) {
  requests = []
  return createRemoteScrypt({ url, secret: SECRET, backoff: { initialMs: 5, maxMs: 20 }, ...options })
}

const derive = (remote: ReturnType<typeof client>) => remote.derive('password', SALT, 32)
const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: { code?: string }) => error.code,
  )

describe('createRemoteScrypt', () => {
  test('sends the fxa-scrypt-helper request, signed over method, path, timestamp, nonce and body', async () => {
    handler = (_request, body, response) => answer(response, body)
    const remote = client()
    expect(await derive(remote)).toEqual(new Uint8Array(32).fill(7))
    const [sent] = requests
    expect(JSON.parse(sent?.body ?? '')).toEqual({
      input: Buffer.from('password').toString('hex'),
      salt: SALT,
      N: 65536,
      r: 8,
      p: 1,
      buflen: 32,
    })
    const header = (name: string) => String(sent?.headers[name])
    const timestamp = header(SIGNATURE_HEADERS.timestamp)
    const nonce = header(SIGNATURE_HEADERS.nonce)
    const expected = signatureOf(Buffer.from(SECRET), {
      method: 'POST',
      path: '/',
      timestamp,
      nonce,
      body: sent?.body ?? '',
    })
    expect(header(SIGNATURE_HEADERS.signature)).toBe(expected)
    expect(remote.info).toMatchObject({
      algorithm: 'scrypt',
      runsOn: 'remote',
      params: { ln: 16, r: 8, p: 1 },
    })
    await remote.close()
  })

  test('plugs into the onepw chain as its scrypt step', () => {
    const remote = client()
    expect(createStretcher({ scrypt: remote }).info.displayName).toBe(
      'onepw (scrypt: scrypt (remote helper))',
    )
    expect(() => createStretcher({ scrypt: client({ ln: 14 }) })).toThrow(/scrypt step must be scrypt/)
  })

  test.each([
    [
      'a key one byte short',
      (body: string, response: ServerResponse) => answer(response, body, '07'.repeat(31)),
    ],
    ['a body that is not JSON', (_body: string, response: ServerResponse) => response.end('<html>')],
    ['non-hex output', (body: string, response: ServerResponse) => answer(response, body, 'zz'.repeat(32))],
    ['an oversized answer', (_body: string, response: ServerResponse) => response.end('x'.repeat(20_000))],
  ])('turns %s into ERR_AUTHLAB_REMOTE_BAD_RESPONSE, never a key', async (_name, reply) => {
    handler = (_request, body, response) => reply(body, response)
    const remote = client()
    expect(await code(derive(remote))).toBe('ERR_AUTHLAB_REMOTE_BAD_RESPONSE')
    expect(remote.stats().attempts).toBe(1)
    await remote.close()
  })

  test('gives up at once on a 4xx with ERR_AUTHLAB_REMOTE_REJECTED carrying the reason', async () => {
    handler = (_request, _body, response) => status(response, 401, 'bad signature')
    const remote = client()
    await expect(derive(remote)).rejects.toThrow(
      expect.objectContaining({
        code: 'ERR_AUTHLAB_REMOTE_REJECTED',
        message: expect.stringContaining('bad signature'),
      }),
    )
    expect(remote.stats()).toMatchObject({ attempts: 1, retries: 0 })
    await remote.close()
  })

  test("the helper's reason reaches the error without its control characters", async () => {
    handler = (_request, _body, response) =>
      status(response, 400, 'no\u001b]8;;https://evil.example/\u0007link\u001b[2J\r\nforged log line\u009b')
    const remote = client()
    const error = (await derive(remote).catch((e: unknown) => e)) as Error & { code?: string }
    expect(error.code).toBe('ERR_AUTHLAB_REMOTE_REJECTED')
    expect(error.message).toContain('forged log line')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    expect(error.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/)
    await remote.close()
  })

  test('retries a 503 and a reset connection with fresh signatures, then returns the key', async () => {
    let served = 0
    handler = (request, body, response) => {
      served++
      if (served === 1) status(response, 503, 'the helper is at capacity')
      else if (served === 2) request.socket.destroy()
      else answer(response, body)
    }
    const remote = client()
    expect(await derive(remote)).toEqual(new Uint8Array(32).fill(7))
    expect(remote.stats()).toMatchObject({ attempts: 3, retries: 2, overloaded: 1, connectionErrors: 1 })
    const nonces = new Set(requests.map((r) => r.headers[SIGNATURE_HEADERS.nonce]))
    expect(nonces.size).toBe(3)
    await remote.close()
  })

  test('spends a retry budget: a helper that only answers 503 gets about one request per call', async () => {
    handler = (_request, _body, response) => status(response, 503, 'the helper is at capacity')
    const remote = client({ maxAttempts: 4, retryBudget: { maxTokens: 10, tokenRatio: 0.1 } })
    const codes = []
    for (let i = 0; i < 10; i++) codes.push(await code(derive(remote)))
    expect(new Set(codes)).toEqual(new Set(['ERR_AUTHLAB_REMOTE_UNAVAILABLE']))
    // Tokens 10 → 6 over the first call's 4 attempts; at 5 (half) retries stop: 9 more single attempts.
    expect(remote.stats()).toMatchObject({ calls: 10, attempts: 13, retries: 3 })
    await remote.close()
  })

  test('does not wait out a Retry-After longer than its deadline', async () => {
    handler = (_request, _body, response) => status(response, 503, 'busy', { 'retry-after': '30' })
    const remote = client({ timeoutMs: 2000 })
    expect(await code(derive(remote))).toBe('ERR_AUTHLAB_REMOTE_UNAVAILABLE')
    expect(remote.stats().attempts).toBe(1)
    await remote.close()
  })

  test('ends a call that gets no answer with ERR_AUTHLAB_REMOTE_TIMEOUT at its deadline', async () => {
    const held: ServerResponse[] = []
    handler = (_request, _body, response) => held.push(response)
    const remote = client({ timeoutMs: 300 })
    expect(await code(derive(remote))).toBe('ERR_AUTHLAB_REMOTE_TIMEOUT')
    for (const response of held) response.destroy()
    await remote.close()
  })

  test('reports a helper nobody listens for as ERR_AUTHLAB_REMOTE_UNAVAILABLE', async () => {
    const remote = createRemoteScrypt({
      url: 'http://127.0.0.1:9/',
      secret: SECRET,
      backoff: { initialMs: 5 },
    })
    expect(await code(derive(remote))).toBe('ERR_AUTHLAB_REMOTE_UNAVAILABLE')
    expect(remote.stats()).toMatchObject({ attempts: 4, connectionErrors: 4 })
    await remote.close()
    expect(await code(derive(remote))).toBe('ERR_AUTHLAB_REMOTE_UNAVAILABLE')
  })

  test('refuses bad options and arguments with ERR_AUTHLAB_INVALID_OPTION', async () => {
    const invalid = { code: 'ERR_AUTHLAB_INVALID_OPTION' }
    expect(() => createRemoteScrypt({ url, secret: 'short' })).toThrow(expect.objectContaining(invalid))
    expect(() => createRemoteScrypt({ url: 'ftp://host/', secret: SECRET })).toThrow(
      expect.objectContaining(invalid),
    )
    expect(() => createRemoteScrypt({ url, secret: SECRET, timeoutMs: 0 })).toThrow(
      expect.objectContaining(invalid),
    )
    const remote = client()
    await expect(remote.derive('pw', SALT, 0)).rejects.toMatchObject(invalid)
    await expect(remote.derive('pw', new Uint8Array([0xff, 0xfe]), 32)).rejects.toMatchObject(invalid)
    await remote.close()
  })
})
