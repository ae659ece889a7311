import { scryptSync } from 'node:crypto'
import { Writable } from 'node:stream'
import { afterEach, describe, expect, test } from 'vitest'
import { buildHelper, type HelperOptions } from '../src/app.js'
import { configFromEnv } from '../src/config.js'
import type { ScryptFn } from '../src/scrypt.js'
import { ONEPW_SALT, onepwBody, SECRET, signedHeaders } from './fixtures.js'

/** A scrypt stand-in that counts calls and finishes only when told to. */
function heldScrypt() {
  const waiting: (() => void)[] = []
  const held = {
    calls: 0,
    waiting,
    fn: (async (input, _salt, { buflen }) => {
      held.calls++
      await new Promise<void>((resolve) => waiting.push(resolve))
      return Buffer.alloc(buflen, input[0] ?? 0)
    }) as ScryptFn,
    releaseAll: () => {
      for (const resolve of waiting.splice(0)) resolve()
    },
  }
  return held
}

const opened: { close(): Promise<unknown> }[] = []
afterEach(async () => {
  await Promise.all(opened.splice(0).map((app) => app.close()))
})

function helper(options: Partial<HelperOptions> = {}) {
  const built = buildHelper({ secret: SECRET, ...options })
  opened.push(built.app)
  return built
}

const post = (app: ReturnType<typeof helper>['app'], body: string, headers = signedHeaders(body)) =>
  app.inject({ method: 'POST', url: '/', headers, payload: body })

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5))
}

describe('the scrypt helper', () => {
  test("answers a signed onepw request with node:crypto's scrypt output", async () => {
    const { app, stats } = helper()
    const input = '0f'.repeat(32)
    const response = await post(app, onepwBody(input))
    expect(response.statusCode).toBe(200)
    const expected = scryptSync(Buffer.from(input, 'hex'), ONEPW_SALT, 32, {
      N: 65536,
      r: 8,
      p: 1,
      maxmem: 80 * 2 ** 20,
    })
    expect(response.json()).toEqual({ output: expected.toString('hex') })
    expect(stats().scryptRuns).toBe(1)
  })

  const body = onepwBody()
  const tooBig = JSON.stringify({
    input: 'ab'.repeat(32),
    salt: 'x'.repeat(5000),
    N: 65536,
    r: 8,
    p: 1,
    buflen: 32,
  })
  const withBody = (payload: string, headers = signedHeaders(payload)) => ({ payload, headers })
  const refusals: [string, number, { payload: string; headers: Record<string, string> }][] = [
    ['no authentication headers', 401, { payload: body, headers: { 'content-type': 'application/json' } }],
    ['another secret', 401, withBody(body, signedHeaders(body, { secret: `${SECRET}-not` }))],
    [
      'a stale timestamp',
      401,
      withBody(body, signedHeaders(body, { timestamp: String(Date.now() - 60_000) })),
    ],
    ['a body changed after signing', 401, withBody(onepwBody('cd'.repeat(32)), signedHeaders(body))],
    ['malformed JSON', 400, withBody('{"input": "ab",')],
    ['N as a string', 400, withBody(body.replace('65536', '"65536"'))],
    ['an unknown field', 400, withBody(body.replace('{', '{"extra":1,'))],
    ['non-hex input', 400, withBody(onepwBody('zz'.repeat(32)))],
    ['odd-length hex', 400, withBody(onepwBody('abc'))],
    ['parameters not on the allow-list', 400, withBody(body.replace('65536', '16384'))],
    ['a body over the limit', 413, withBody(tooBig)],
    [
      'a content type other than JSON',
      415,
      { payload: body, headers: { ...signedHeaders(body), 'content-type': 'text/plain' } },
    ],
  ]
  test.each(refusals)('refuses %s with %i and runs no scrypt', async (_name, status, request) => {
    const held = heldScrypt()
    const { app } = helper({ scrypt: held.fn })
    const response = await app.inject({ method: 'POST', url: '/', ...request })
    expect(response.statusCode).toBe(status)
    expect(held.calls).toBe(0)
  })

  test('says which parameters are allowed when refusing others', async () => {
    const { app } = helper({ extraParams: [{ N: 1024, r: 8, p: 1, buflen: 64 }] })
    const refused = await post(app, body.replace('65536', '16384'))
    expect(refused.json().message).toBe(
      'parameters not allowed: N=16384,r=8,p=1,buflen=32 (allowed: N=65536,r=8,p=1,buflen=32; N=1024,r=8,p=1,buflen=64)',
    )
    const extra = await post(app, body.replace('65536', '1024').replace('"buflen":32', '"buflen":64'))
    expect(extra.statusCode).toBe(200)
    expect(extra.json().output).toHaveLength(128)
  })

  test('refuses a replayed request: the same signed request works once', async () => {
    let calls = 0
    const instant: ScryptFn = async (_input, _salt, { buflen }) => {
      calls++
      return Buffer.alloc(buflen)
    }
    const { app } = helper({ scrypt: instant })
    const headers = signedHeaders(body)
    expect((await post(app, body, headers)).statusCode).toBe(200)
    const replay = await post(app, body, headers)
    expect(replay.statusCode).toBe(401)
    expect(replay.json().message).toBe('nonce already used')
    expect(calls).toBe(1)
  })

  test('answers 503 with Retry-After, the time until a nonce expires, once the nonce cache is full', async () => {
    const instant: ScryptFn = async (_input, _salt, { buflen }) => Buffer.alloc(buflen)
    const { app } = helper({ scrypt: instant, nonceCacheSize: 1, replayWindowMs: 5000 })
    expect((await post(app, body)).statusCode).toBe(200)
    const refused = await post(app, body)
    expect(refused.statusCode).toBe(503)
    expect(refused.json().message).toBe('too many requests in the replay window')
    // The first nonce is kept two windows (10 s): room again within that, never sooner than now.
    const seconds = Number(refused.headers['retry-after'])
    expect(seconds).toBeGreaterThanOrEqual(1)
    expect(seconds).toBeLessThanOrEqual(10)
  })

  test('answers 503 with Retry-After once the slots and the queue are full', async () => {
    const held = heldScrypt()
    const { app, stats } = helper({ scrypt: held.fn, concurrency: 1, queueLimit: 1 })
    const admitted = [post(app, body), post(app, body)]
    await until(() => stats().running === 1 && stats().queued === 1)
    const refused = await post(app, body)
    expect(refused.statusCode).toBe(503)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    await until(() => held.waiting.length === 1)
    held.releaseAll()
    await until(() => held.waiting.length === 1)
    held.releaseAll()
    expect((await Promise.all(admitted)).map((r) => r.statusCode)).toEqual([200, 200])
    expect(stats()).toMatchObject({ running: 0, queued: 0, scryptRuns: 2, overloaded: 1 })
  })

  test('reports health, and readiness until it starts draining; in-flight work is still answered', async () => {
    const held = heldScrypt()
    const { app } = helper({ scrypt: held.fn })
    expect((await app.inject('/health')).json()).toMatchObject({ status: 'ok', running: 0 })
    expect((await app.inject('/ready')).statusCode).toBe(200)
    const inFlight = post(app, body)
    await until(() => held.waiting.length === 1)
    const closing = app.close()
    held.releaseAll()
    const answer = await inFlight
    expect(answer.statusCode).toBe(200)
    expect(answer.json().output).toBe('ab'.repeat(32))
    await closing
  })

  test('logs requests without their inputs or outputs', async () => {
    const lines: string[] = []
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const input = '5e'.repeat(32)
    const { app } = helper({ logger: { level: 'trace', stream } })
    const answer = await post(app, onepwBody(input))
    const output = answer.json().output as string
    await post(app, `{"input":"${input}",`)
    await post(app, onepwBody(`${input}zz`))
    expect(lines.length).toBeGreaterThan(3)
    const leaked = lines.filter((line) => line.includes(input) || line.includes(output))
    expect(leaked).toEqual([])
  })

  test('answers a failure of its own with a bare 500, and frees the slot', async () => {
    const failing: ScryptFn = async () => {
      throw new Error('out of memory in scryptROMix')
    }
    const { app, stats } = helper({ scrypt: failing, concurrency: 1, queueLimit: 0 })
    for (let i = 0; i < 2; i++) {
      const response = await post(app, body)
      expect(response.statusCode).toBe(500)
      expect(response.json()).toEqual({
        statusCode: 500,
        error: 'Internal Server Error',
        message: 'internal error',
      })
    }
    expect(stats()).toMatchObject({ running: 0, overloaded: 0 })
  })

  test('refuses a short secret and bad configuration with typed errors', () => {
    expect(() => buildHelper({ secret: 'short' })).toThrow(
      expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_OPTION' }),
    )
    expect(() => buildHelper({ secret: SECRET, extraParams: [{ N: 1000, r: 8, p: 1, buflen: 32 }] })).toThrow(
      /out of bounds/,
    )
    // Each parameter within its own cap, together 128·32·2^20 bytes = 4 GiB per call: refused at start,
    // naming core's scrypt budget, before any request could ask for it.
    const env = {
      AUTHLAB_HELPER_SECRET: SECRET,
      AUTHLAB_HELPER_EXTRA_PARAMS: '[{"N":1048576,"r":32,"p":1,"buflen":32}]',
    }
    expect(() => buildHelper(configFromEnv(env).helper)).toThrow(
      expect.objectContaining({
        code: 'ERR_AUTHLAB_INVALID_OPTION',
        message: expect.stringMatching(/N=1048576,r=32,p=1.* 4096 MiB .*over .*256 MiB/),
      }),
    )
    expect(() => configFromEnv({})).toThrow(/AUTHLAB_HELPER_SECRET/)
    expect(() => configFromEnv({ AUTHLAB_HELPER_SECRET: SECRET, PORT: 'eighty' })).toThrow(/PORT/)
    const { helper: options, listen } = configFromEnv({
      AUTHLAB_HELPER_SECRET: SECRET,
      AUTHLAB_HELPER_EXTRA_PARAMS: '[{"N":1024,"r":8,"p":1,"buflen":32}]',
      PORT: '9000',
    })
    expect(options.extraParams).toEqual([{ N: 1024, r: 8, p: 1, buflen: 32 }])
    expect(listen).toMatchObject({ host: '127.0.0.1', port: 9000 })
  })
})
