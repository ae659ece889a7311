import { getSession, H3, HTTPError, type SessionConfig, toNodeHandler, useSession } from 'h3'
import { listenNode } from './listen.js'
import {
  type ListenOptions,
  type RunningApp,
  resolveSessionOptions,
  type SessionAppOptions,
} from './options.js'

export const H3_COOKIE = 'h3'

/** h3 keeps no server-side store: the session, ID included, lives sealed (iron) in its cookie. */
export type H3AppOptions = Omit<SessionAppOptions, 'store'>

interface Visits {
  visits?: number
}

/**
 * h3 2 with `useSession`: `generateId` is the option h3 calls for a new session's ID (h3 `src/utils/session.ts`,
 * `getSession`: `config.generateId?.() ?? (config.crypto || crypto).randomUUID()`), and the whole session is
 * sealed into the `h3` cookie with `password`. h3 has no regenerate: `clear()` deletes the cookie, and the
 * next request starts a session with a new ID.
 */
export function createH3App(options: H3AppOptions): H3 {
  const { generateId, secret, maxAgeMs } = resolveSessionOptions(options)
  const config: SessionConfig = {
    name: H3_COOKIE,
    password: secret,
    generateId: () => generateId(),
    // h3 counts in seconds; idleTimeout is its sliding expiry (express-session's `rolling`).
    idleTimeout: Math.ceil(maxAgeMs / 1000),
    // Plain HTTP on 127.0.0.1: a secure cookie would never be sent back (RFC 6265bis §5.8.3).
    cookie: { secure: false, httpOnly: true, sameSite: 'lax', path: '/' },
  }
  const app = new H3()
  app.get('/', async (event) => {
    const session = await useSession<Visits>(event, config)
    await session.update({ visits: (session.data.visits ?? 0) + 1 })
    return { id: session.id, visits: session.data.visits }
  })
  app.get('/me', async (event) => {
    // getSession, unlike useSession, issues no cookie for a request that brought none.
    const session = await getSession<Visits>(event, config)
    if (session.data.visits === undefined) throw new HTTPError({ status: 401, message: 'no session' })
    return { id: session.id, visits: session.data.visits }
  })
  app.post('/logout', async (event) => {
    const session = await useSession(event, config)
    await session.clear()
    event.res.status = 204
    return null
  })
  return app
}

export function startH3App(options: H3AppOptions, listen: ListenOptions = {}): Promise<RunningApp> {
  return listenNode('h3', toNodeHandler(createH3App(options)), listen)
}
