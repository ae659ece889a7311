import express, { type ErrorRequestHandler, type Express, type Request } from 'express'
import session from 'express-session'
import { errorReply } from './errors.js'
import { createHttpServer, type ListenOptions, type RunningServer, urlOf } from './listen.js'
import { createDefaultStore } from './memory-store.js'
import {
  BODY_LIMIT_BYTES,
  resolveServerOptions,
  SESSION_COOKIE_NAME,
  type SessionServerOptions,
} from './options.js'

declare module 'express-session' {
  interface SessionData {
    visits: number
    user: string
  }
}

function regenerate(request: Request): Promise<void> {
  return new Promise((resolve, reject) =>
    request.session.regenerate((error) => (error ? reject(error) : resolve())),
  )
}

function save(request: Request): Promise<void> {
  return new Promise((resolve, reject) =>
    request.session.save((error) => (error ? reject(error) : resolve())),
  )
}

function destroy(request: Request): Promise<void> {
  return new Promise((resolve, reject) =>
    request.session.destroy((error) => (error ? reject(error) : resolve())),
  )
}

/**
 * The routes on Express 5 with express-session; `GET /health` is mounted before the session. Without a
 * `store` this uses express-session's MemoryStore, which never sweeps; `startExpressServer` gives it a
 * sweeping one it closes with the server.
 */
export function createExpressApp(options: SessionServerOptions): Express {
  const { generateId, users, secret, store, maxAgeMs, exposeErrors, saveBeforeReply, onError } =
    resolveServerOptions(options)
  const app = express()
  app.disable('x-powered-by')
  app.get('/health', (_request, response) => {
    response.json({ status: 'ok' })
  })

  const withSession = express.Router()
  withSession.use(
    session({
      name: SESSION_COOKIE_NAME,
      secret,
      genid: generateId,
      store,
      resave: false,
      // A request that puts nothing in its session (a cookieless 401, a 404) stores nothing: otherwise
      // every such request leaves a session behind until it expires (OWASP Session Management Cheat
      // Sheet: create a session only when the application needs one).
      saveUninitialized: false,
      rolling: true,
      // Plain HTTP on 127.0.0.1: a secure cookie would never be sent back (RFC 6265bis §5.8.3).
      cookie: { secure: false, httpOnly: true, sameSite: 'lax', path: '/', maxAge: maxAgeMs },
    }),
  )

  withSession.get('/', async (request, response) => {
    request.session.visits = (request.session.visits ?? 0) + 1
    if (saveBeforeReply) await save(request)
    response.json({ id: request.sessionID, visits: request.session.visits })
  })

  withSession.post('/login', express.json({ limit: BODY_LIMIT_BYTES }), async (request, response) => {
    const result = await users.verify(request.body)
    if (!result.ok) {
      response.status(result.status).json({ error: result.error })
      return
    }
    // OWASP Session Management Cheat Sheet, "Renew the Session ID After Any Privilege Level Change":
    // regenerate destroys the pre-login session in the store, defeating session fixation.
    await regenerate(request)
    request.session.user = result.username
    if (saveBeforeReply) await save(request)
    response.json({ id: request.sessionID, user: result.username })
  })

  withSession.get('/me', (request, response) => {
    const user = request.session.user
    if (user === undefined) {
      response.status(401).json({ error: 'not logged in' })
      return
    }
    response.json({ id: request.sessionID, user })
  })

  withSession.post('/logout', async (request, response) => {
    await destroy(request)
    response.clearCookie(SESSION_COOKIE_NAME, { path: '/' }).status(204).end()
  })

  app.use(withSession)
  const handleError: ErrorRequestHandler = (error, _request, response, next) => {
    const { status, body } = errorReply(error, exposeErrors, onError)
    // express-session reports a failed save after it has sent the response; there is nothing left to
    // answer. A response cut off midway goes to Express's default handler, which closes the socket.
    if (response.writableEnded) return
    if (response.headersSent) return next(error)
    response.status(status).json(body)
  }
  app.use(handleError)
  return app
}

export async function startExpressServer(
  options: SessionServerOptions,
  listenOptions: ListenOptions = {},
): Promise<RunningServer> {
  const { host = '127.0.0.1', port = 0 } = listenOptions
  const owned =
    options.store === undefined ? createDefaultStore(resolveServerOptions(options).maxAgeMs) : undefined
  const app = createExpressApp({ ...options, store: options.store ?? owned })
  const server = createHttpServer(app, listenOptions)
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve({
        framework: 'express',
        url: urlOf(server),
        close: () =>
          new Promise<void>((done, fail) => {
            owned?.close()
            server.close((error) => (error ? fail(error) : done()))
            server.closeAllConnections()
          }),
      })
    })
  })
}
