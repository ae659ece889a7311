import { createServer } from 'node:http'
import fastifyCookie from '@fastify/cookie'
import fastifySession, { type FastifySessionOptions } from '@fastify/session'
import Fastify, { type FastifyInstance } from 'fastify'
import { errorReply } from './errors.js'
import type { ListenOptions, RunningServer } from './listen.js'
import {
  BODY_LIMIT_BYTES,
  resolveServerOptions,
  SESSION_COOKIE_NAME,
  type SessionServerOptions,
  SIGNED_COOKIE_PREFIX,
} from './options.js'

declare module 'fastify' {
  interface Session {
    visits?: number
    user?: string
  }
}

/** The routes of issue 5 on Fastify 5 with @fastify/session; `GET /health` sits outside the session scope. */
export async function createFastifyApp(
  options: SessionServerOptions,
  { maxHeaderSize }: Pick<ListenOptions, 'maxHeaderSize'> = {},
): Promise<FastifyInstance> {
  const { generateId, users, secret, store, maxAgeMs, exposeErrors, onError } = resolveServerOptions(options)
  const app = Fastify({
    bodyLimit: BODY_LIMIT_BYTES,
    serverFactory: (handler) => createServer({ maxHeaderSize }, handler),
  })
  app.setErrorHandler((error, _request, reply) => {
    const { status, body } = errorReply(error, exposeErrors, onError)
    return reply.code(status).send(body)
  })
  app.get('/health', async () => ({ status: 'ok' }))

  await app.register(async (scope) => {
    await scope.register(fastifyCookie)
    await scope.register(fastifySession, {
      secret,
      cookieName: SESSION_COOKIE_NAME,
      cookiePrefix: SIGNED_COOKIE_PREFIX,
      idGenerator: generateId,
      store: store as FastifySessionOptions['store'],
      rolling: true,
      saveUninitialized: true,
      // Plain HTTP on 127.0.0.1: a secure cookie would never be sent back (RFC 6265bis §5.8.3).
      cookie: { secure: false, httpOnly: true, sameSite: 'lax', path: '/', maxAge: maxAgeMs },
    })

    scope.get('/', async (request) => {
      const session = request.session
      session.visits = (session.visits ?? 0) + 1
      return { id: session.sessionId, visits: session.visits }
    })

    scope.post('/login', async (request, reply) => {
      const result = await users.verify(request.body)
      if (!result.ok) return reply.code(result.status).send({ error: result.error })
      // OWASP Session Management Cheat Sheet, "Renew the Session ID After Any Privilege Level Change":
      // regenerate destroys the pre-login session in the store, defeating session fixation.
      await request.session.regenerate()
      request.session.user = result.username
      return { id: request.session.sessionId, user: result.username }
    })

    scope.get('/me', async (request, reply) => {
      const { user, sessionId } = request.session
      if (user === undefined) return reply.code(401).send({ error: 'not logged in' })
      return { id: sessionId, user }
    })

    scope.post('/logout', async (request, reply) => {
      await request.session.destroy()
      reply.clearCookie(SESSION_COOKIE_NAME, { path: '/' })
      return reply.code(204).send()
    })
  })
  return app
}

export async function startFastifyServer(
  options: SessionServerOptions,
  { host = '127.0.0.1', port = 0, maxHeaderSize }: ListenOptions = {},
): Promise<RunningServer> {
  const app = await createFastifyApp(options, { maxHeaderSize })
  const url = await app.listen({ host, port })
  return { framework: 'fastify', url, close: () => app.close() }
}
