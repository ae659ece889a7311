import { STATUS_CODES } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { createGate, InvalidOptionError } from '@authlab/core'
import { createHttpServer, type ListenOptions } from '@authlab/servers'
import { secretBytes } from '@authlab/stretch-remote'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { createAuthenticator, httpError } from './auth.js'
import { checkParams, keyOf, ONEPW_PARAMS, type ScryptParams } from './params.js'
import { nodeScrypt, type ScryptFn } from './scrypt.js'

export interface HelperOptions {
  /** The secret shared with clients (≥ 32 bytes); every request must be signed with it. */
  secret: string | Uint8Array
  /** Parameter sets allowed besides onepw's N=65536, r=8, p=1, buflen=32. */
  extraParams?: readonly ScryptParams[]
  /** scrypt calls run at once (default: the libuv threadpool size, where node:crypto runs them). */
  concurrency?: number
  /** Requests that may wait for a slot (default 4 × concurrency); beyond it the answer is 503. */
  queueLimit?: number
  /** Accepted clock difference for signed timestamps, either way (default 30 s). */
  replayWindowMs?: number
  /** Nonces remembered inside the window (default 100,000). */
  nonceCacheSize?: number
  /** Largest request body in bytes (default 4096: onepw's request is about 150). */
  bodyLimit?: number
  /**
   * Bounds on a connection's life, before anyone is authenticated: headers within `headersTimeoutMs`
   * (default 5 s), the whole request within `requestTimeoutMs` (default 10 s; onepw's body is about
   * 150 bytes), an idle keep-alive connection closed after `keepAliveTimeoutMs` (default 5 s), and at
   * most `maxConnections` open (default 1024). Without them a client that sends valid-looking headers
   * and no body holds its socket forever.
   */
  connections?: ConnectionLimits
  /** Bench only: delay added to every answer to imitate a network round trip; 0 on a real network. */
  simulatedRttMs?: number
  logger?: FastifyServerOptions['logger']
  /** The scrypt implementation (default node:crypto on the threadpool); tests substitute a controllable one. */
  scrypt?: ScryptFn
}

export type ConnectionLimits = Pick<
  ListenOptions,
  'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs' | 'maxConnections'
>

/** What a signed request needs and no more (OWASP Denial of Service Cheat Sheet: bound every resource). */
export const DEFAULT_CONNECTION_LIMITS = {
  headersTimeoutMs: 5000,
  requestTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5000,
  maxConnections: 1024,
} as const satisfies ConnectionLimits

export interface HelperStats {
  running: number
  queued: number
  /** scrypt computations finished since start: what an unauthenticated or invalid request must not add to. */
  scryptRuns: number
  overloaded: number
}

const HEX = '^(?:[0-9a-fA-F]{2})+$'

/** Strict: no coercion ("65536" is not 65536), no unknown fields, bounded strings. */
const bodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['input', 'salt', 'N', 'r', 'p', 'buflen'],
  properties: {
    input: { type: 'string', minLength: 2, maxLength: 2048, pattern: HEX },
    salt: { type: 'string', maxLength: 1024 },
    N: { type: 'integer' },
    r: { type: 'integer' },
    p: { type: 'integer' },
    buflen: { type: 'integer' },
  },
} as const

interface StretchBody {
  input: string
  salt: string
  N: number
  r: number
  p: number
  buflen: number
}

function defaultConcurrency(): number {
  const fromEnv = Number(process.env.UV_THREADPOOL_SIZE)
  return Number.isSafeInteger(fromEnv) && fromEnv > 0 ? fromEnv : 4
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}

function atLeast(min: number, name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new InvalidOptionError(`${name} must be an integer ≥ ${min}, got ${String(value)}`)
  }
  return value
}

/**
 * The scrypt helper: Mozilla's fxa-scrypt-helper protocol (POST `{ input, salt, N, r, p, buflen }`
 * → `{ output }`), signed, allow-listed and bounded. fastify's own pino logging records method,
 * URL, status and timing only; no route logs a body, and error messages never quote one.
 */
export function buildHelper(options: HelperOptions): {
  app: FastifyInstance
  stats: () => HelperStats
} {
  const secret = secretBytes(options.secret)
  const slots = atLeast(1, 'concurrency', options.concurrency ?? defaultConcurrency())
  const queueLimit = atLeast(0, 'queueLimit', options.queueLimit ?? 4 * slots)
  const rtt = atLeast(0, 'simulatedRttMs', options.simulatedRttMs ?? 0)
  const scrypt = options.scrypt ?? nodeScrypt
  const allowed = new Map(
    [ONEPW_PARAMS, ...(options.extraParams ?? []).map(checkParams)].map((params) => [keyOf(params), params]),
  )
  const auth = createAuthenticator({
    secret,
    replayWindowMs: atLeast(1000, 'replayWindowMs', options.replayWindowMs ?? 30_000),
    nonceCacheSize: atLeast(1, 'nonceCacheSize', options.nonceCacheSize ?? 100_000),
  })
  const gate = createGate(slots, queueLimit)
  const counts = { scryptRuns: 0, overloaded: 0 }
  // Running mean of one scrypt call, for Retry-After; starts at a typical N=2^16 time.
  let meanScryptMs = 150
  let draining = false

  const connections = { ...DEFAULT_CONNECTION_LIMITS, ...stripUndefined(options.connections ?? {}) }
  const app = Fastify({
    logger: options.logger ?? false,
    // The same slowloris bounds as the session servers' (apps/servers/src/listen.ts), plus a cap on
    // open connections: fastify's own requestTimeout and connectionTimeout default to 0 (none).
    serverFactory: (handler) => createHttpServer(handler, connections),
    bodyLimit: atLeast(256, 'bodyLimit', options.bodyLimit ?? 4096),
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false } },
  })
  const authenticated = new WeakSet<object>()

  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    try {
      auth.checkSignature(request, body as string)
      authenticated.add(request)
    } catch (error) {
      return done(error as Error, undefined)
    }
    try {
      done(null, JSON.parse(body as string))
    } catch {
      // Node's SyntaxError quotes the body; this message must not, since error messages are logged.
      done(httpError(400, 'body is not valid JSON'), undefined)
    }
  })
  // A refusal is routine (and, under attack, frequent): one short info line without a stack trace.
  // A failure of the helper itself is logged in full, but its message is not sent to the client.
  app.setErrorHandler(
    (error: Error & { statusCode?: number; retryAfterSeconds?: number }, request, reply) => {
      const given = error.statusCode ?? 500
      const refused = (given >= 400 && given < 500) || given === 503
      const status = refused ? given : 500
      if (status === 503 && error.retryAfterSeconds !== undefined)
        reply.header('retry-after', String(error.retryAfterSeconds))
      if (refused) request.log.info({ statusCode: status, reason: error.message }, 'refused')
      else request.log.error({ err: error }, 'failed')
      return reply.code(status).send({
        statusCode: status,
        error: STATUS_CODES[status],
        message: refused ? error.message : 'internal error',
      })
    },
  )
  app.addHook('preClose', async () => {
    draining = true
  })
  // fastify closes the connections idle when shutdown starts; a keep-alive connection busy then would
  // stay open after its answer and hold the drain until the client's idle timeout, so close it.
  app.addHook('onSend', async (_request, reply) => {
    if (draining) reply.header('connection', 'close')
  })

  app.get('/health', async () => ({ status: 'ok', ...stats() }))
  app.get('/ready', async (_request, reply) =>
    draining ? reply.code(503).send({ status: 'draining' }) : { status: 'ready' },
  )

  app.post<{ Body: StretchBody }>(
    '/',
    {
      schema: { body: bodySchema },
      onRequest: async (request) => auth.checkHeaders(request),
      // A request without a body never reaches the parser that checks the signature.
      preValidation: async (request) => {
        if (!authenticated.has(request)) throw httpError(401, 'unsigned request')
      },
    },
    async (request, reply) => {
      const { input, salt, N, r, p, buflen } = request.body
      const params = allowed.get(keyOf({ N, r, p, buflen }))
      if (!params) {
        const list = [...allowed.keys()].join('; ')
        throw httpError(400, `parameters not allowed: ${keyOf({ N, r, p, buflen })} (allowed: ${list})`)
      }
      if (rtt) await sleep(rtt / 2)
      const entered = gate.tryEnter()
      if (!entered) {
        counts.overloaded++
        // The time the work ahead needs: a client that waits this long finds a free slot.
        const seconds = Math.ceil(((gate.running + gate.queued) * meanScryptMs) / slots / 1000)
        reply.header('retry-after', String(Math.max(1, seconds)))
        throw httpError(503, 'the helper is at capacity')
      }
      const release = await entered
      let output: Buffer
      try {
        // A client that gave up while queued gets nothing from the work: skip it.
        if (request.socket.destroyed) throw httpError(503, 'the client went away')
        const started = performance.now()
        output = await scrypt(Buffer.from(input, 'hex'), Buffer.from(salt, 'utf8'), params)
        meanScryptMs += (performance.now() - started - meanScryptMs) / 8
        counts.scryptRuns++
      } finally {
        release()
      }
      if (rtt) await sleep(rtt / 2)
      return { output: output.toString('hex') }
    },
  )

  const stats = (): HelperStats => ({ running: gate.running, queued: gate.queued, ...counts })
  return { app, stats }
}
