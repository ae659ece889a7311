import fastifyCookie from '@fastify/cookie'
import fastifySession, { type FastifySessionOptions } from '@fastify/session'
import Fastify, { type FastifyInstance } from 'fastify'
import { errorReply } from './errors.js'
import { createHttpServer, type ListenOptions, type RunningServer } from './listen.js'
import { createDefaultStore } from './memory-store.js'
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

/** The shared login/session routes on Fastify 5 with @fastify/session; `GET /health` sits outside the session scope. */
export async function createFastifyApp(
  options: SessionServerOptions,
  listenOptions: Omit<ListenOptions, 'host' | 'port'> = {},
): Promise<FastifyInstance> {
  const { generateId, users, secret, store, maxAgeMs, exposeErrors, saveBeforeReply, onError } =
    resolveServerOptions(options)
  const app = Fastify({
    bodyLimit: BODY_LIMIT_BYTES,
    serverFactory: (handler) => createHttpServer(handler, listenOptions),
  })
  app.setErrorHandler((error, _request, reply) => {
    const { status, body } = errorReply(error, exposeErrors, onError)
    return reply.code(status).send(body)
  })
  app.get('/health', async () => ({ status: 'ok' }))

  // @fastify/session's own default store is a Map that never forgets an expired session.
  const owned = store === undefined ? createDefaultStore(maxAgeMs) : undefined
  if (owned) app.addHook('onClose', async () => owned.close())

  await app.register(async (scope) => {
    await scope.register(fastifyCookie)
    await scope.register(fastifySession, {
      secret,
      cookieName: SESSION_COOKIE_NAME,
      cookiePrefix: SIGNED_COOKIE_PREFIX,
      idGenerator: generateId,
      store: (store ?? owned) as FastifySessionOptions['store'],
      rolling: true,
      // A request that puts nothing in its session (a cookieless 401) stores nothing: otherwise every
      // such request leaves a session behind until it expires (OWASP Session Management Cheat Sheet:
      // create a session only when the application needs one).
      saveUninitialized: false,
      // Plain HTTP on 127.0.0.1: a secure cookie would never be sent back (RFC 6265bis §5.8.3).
      cookie: { secure: false, httpOnly: true, sameSite: 'lax', path: '/', maxAge: maxAgeMs },
    })

    scope.get('/', async (request) => {
      const session = request.session
      session.visits = (session.visits ?? 0) + 1
      if (saveBeforeReply) await session.save()
      return { id: session.sessionId, visits: session.visits }
    })

    scope.post('/login', async (request, reply) => {
      const result = await users.verify(request.body)
      if (!result.ok) return reply.code(result.status).send({ error: result.error })
      // OWASP Session Management Cheat Sheet, "Renew the Session ID After Any Privilege Level Change":
      // regenerate destroys the pre-login session in the store, defeating session fixation.
      await request.session.regenerate()
      request.session.user = result.username
      if (saveBeforeReply) await request.session.save()
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
  listenOptions: ListenOptions = {},
): Promise<RunningServer> {
  const { host = '127.0.0.1', port = 0, ...serverOptions } = listenOptions
  const app = await createFastifyApp(options, serverOptions)
  const url = await app.listen({ host, port })
  return { framework: 'fastify', url, close: () => app.close() }
}
