import { type SessionEnv, type Storage, useSession, useSessionStorage } from '@hono/session'
import { Hono } from 'hono'
import type { KeyValueStore } from './kv.js'
import {
  type ListenOptions,
  type RunningApp,
  resolveSessionOptions,
  type SessionAppOptions,
  sessionStore,
} from './options.js'
import { serveFetch } from './serve.js'

/** @hono/session's cookie name (`src/index.ts`: `DEFAULT_SESSION_NAME = 'sid'`), a JWE holding the ID. */
export const HONO_COOKIE = 'sid'

/** OWASP Session Management Cheat Sheet, "Absolute Timeout": re-authenticate after a working day at most. */
const ABSOLUTE_TIMEOUT_S = 8 * 60 * 60

interface Visits extends Record<string, unknown> {
  visits: number
}

/**
 * @hono/session's `Storage` over a KeyValueStore. It awaits `get` but not `set` or `delete`
 * (@hono/session `src/session.ts`, `persistSession`): a failed write is reported to `onError` and never
 * reaches the request, and a later request still reads the write because one Redis connection answers
 * its commands in order.
 */
function honoStorage(
  store: KeyValueStore,
  ttlMs: number,
  onError: (error: unknown) => void,
): Storage<Visits> {
  return {
    async get(sid) {
      const value = await store.get(sid)
      return value === undefined ? null : (JSON.parse(value) as Visits)
    },
    set(sid, value) {
      store.set(sid, JSON.stringify(value), ttlMs).catch(onError)
    },
    delete(sid) {
      store.delete(sid).catch(onError)
    },
  }
}

export interface HonoAppOptions extends SessionAppOptions {
  /** Writes @hono/session does not await and that failed (default: printed to stderr). */
  readonly onStorageError?: (error: unknown) => void
}

/**
 * Hono 4 with @hono/session, the one Hono session middleware whose session ID the app can choose:
 * `useSession({ generateId })` (@hono/session `src/index.ts`). hono-sessions hard-codes
 * `crypto.randomUUID()` (its `src/Middleware.ts`). The ID travels inside an encrypted JWE cookie and keys
 * the data in `useSessionStorage`'s storage. @hono/session has no regenerate: `delete()` ends the
 * session, and the next request starts one with a new ID.
 */
export function createHonoApp(options: HonoAppOptions & { store: KeyValueStore }): Hono<SessionEnv<Visits>> {
  const { generateId, secret, maxAgeMs } = resolveSessionOptions(options)
  const onError = options.onStorageError ?? ((error) => console.error('@hono/session storage:', error))
  const app = new Hono<SessionEnv<Visits>>()
  app.use(useSessionStorage(honoStorage(options.store, maxAgeMs, onError)))
  app.use(
    useSession<Visits>({
      secret,
      generateId: () => generateId(),
      duration: { absolute: ABSOLUTE_TIMEOUT_S, inactivity: Math.ceil(maxAgeMs / 1000) },
    }),
  )
  app.get('/', async (c) => {
    const session = c.var.session
    const data = await session.get()
    await session.update({ visits: (data?.visits ?? 0) + 1 })
    return c.json({ id: session.id, visits: session.data?.visits })
  })
  app.get('/me', async (c) => {
    const data = await c.var.session.get()
    if (data === null) return c.json({ error: 'no session' }, 401)
    return c.json({ id: c.var.session.id, visits: data.visits })
  })
  app.post('/logout', async (c) => {
    await c.var.session.get()
    c.var.session.delete()
    return c.body(null, 204)
  })
  return app
}

/** The app served with the runtime's own server (serve.ts): node:http on Node, `Bun.serve`, `Deno.serve`. */
export async function startHonoApp(options: HonoAppOptions, listen: ListenOptions = {}): Promise<RunningApp> {
  const { store, owned } = sessionStore(resolveSessionOptions(options))
  const running = await serveFetch('hono', createHonoApp({ ...options, store }).fetch, listen)
  return {
    ...running,
    close: async () => {
      await running.close()
      if (owned) await store.close()
    },
  }
}
