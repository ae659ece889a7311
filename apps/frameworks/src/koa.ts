import Koa from 'koa'
import session from 'koa-session'
import type { KeyValueStore } from './kv.js'
import { listenNode } from './listen.js'
import {
  type ListenOptions,
  type RunningApp,
  resolveSessionOptions,
  type SessionAppOptions,
  sessionStore,
} from './options.js'

export const KOA_COOKIE = 'koa.sess'

/**
 * koa-session's external store (`get(key, maxAge, …)`, `set(key, sess, maxAge, …)`, `destroy(key)`,
 * koa-session `src/index.ts` SessionOptions.store) over a KeyValueStore: one JSON value per session.
 * koa-session asks for `maxAge` + 10 s in the store, so a session outlives its cookie there.
 */
function koaStore(store: KeyValueStore) {
  return {
    async get(key: string) {
      const value = await store.get(key)
      return value === undefined ? undefined : JSON.parse(value)
    },
    async set(key: string, value: unknown, maxAge: number | 'session' | undefined) {
      await store.set(key, JSON.stringify(value), typeof maxAge === 'number' ? maxAge : undefined)
    },
    async destroy(key: string) {
      await store.delete(key)
    },
  }
}

interface Visits {
  visits?: number
}

/**
 * Koa 3 with koa-session 7 on an external store: the cookie `koa.sess` holds the session ID that `genid`
 * issued (koa-session `src/context.ts`, `create()`), signed by Keygrip with `app.keys` in `koa.sess.sig`.
 */
export function createKoaApp(options: SessionAppOptions & { store: KeyValueStore }): Koa {
  const { generateId, secret, maxAgeMs } = resolveSessionOptions(options)
  const { store } = options
  const app = new Koa({ keys: [secret] })
  app.use(
    session(
      {
        key: KOA_COOKIE,
        maxAge: maxAgeMs,
        rolling: true,
        httpOnly: true,
        sameSite: 'lax',
        // Plain HTTP on 127.0.0.1: a secure cookie would never be sent back (RFC 6265bis §5.8.3).
        secure: false,
        genid: () => generateId(),
        store: koaStore(store),
      },
      app,
    ),
  )
  app.use(async (ctx) => {
    const data = ctx.session as (NonNullable<typeof ctx.session> & Visits) | null
    if (data === null) ctx.throw(500, 'koa-session did not attach a session')
    const key = `${ctx.method} ${ctx.path}`
    if (key === 'GET /') {
      data.visits = (data.visits ?? 0) + 1
      ctx.body = { id: data.externalKey, visits: data.visits }
    } else if (key === 'GET /me') {
      if (data.isNew) {
        ctx.status = 401
        ctx.body = { error: 'no session' }
        return
      }
      ctx.body = { id: data.externalKey, visits: data.visits ?? 0 }
    } else if (key === 'POST /login') {
      // koa-session destroys the old key in the store and saves the data under a new genid()
      // (`src/context.ts` commit({ regenerate })); the new key reaches the client in the cookie.
      const previousId = data.externalKey
      await data.regenerate()
      ctx.body = { previousId }
    } else if (key === 'POST /logout') {
      ctx.session = null
      ctx.status = 204
    } else {
      ctx.status = 404
      ctx.body = { error: 'not found' }
    }
  })
  return app
}

export async function startKoaApp(
  options: SessionAppOptions,
  listen: ListenOptions = {},
): Promise<RunningApp> {
  const { store, owned } = sessionStore(resolveSessionOptions(options))
  const app = createKoaApp({ ...options, store })
  return listenNode('koa', app.callback(), listen, async () => {
    if (owned) await store.close()
  })
}
