import type { EmailConfig } from '@auth/core/providers/email'
import { ExpressAuth, type ExpressAuthConfig, getSession } from '@auth/express'
import { UnstorageAdapter } from '@auth/unstorage-adapter'
import express from 'express'
import { createStorage, type Driver } from 'unstorage'
import type { KeyValueStore } from './kv.js'
import { listenNode } from './listen.js'
import {
  type ListenOptions,
  type RunningApp,
  resolveSessionOptions,
  type SessionAppOptions,
  sessionStore,
} from './options.js'

/** Auth.js's session cookie over plain HTTP (@auth/core `lib/utils/cookie.ts`, `defaultCookies`). */
export const AUTHJS_COOKIE = 'authjs.session-token'
/** Where Auth.js is mounted; its routes are `/auth/csrf`, `/auth/signin/<provider>`, `/auth/session`, … */
export const AUTHJS_BASE_PATH = '/auth'
/** The magic-link provider's id, in `/auth/signin/email-link` and `/auth/callback/email-link`. */
export const EMAIL_PROVIDER_ID = 'email-link'
/** @auth/unstorage-adapter's default key of a database session: `user:session:<sessionToken>`. */
export const AUTHJS_SESSION_KEY_PREFIX = 'user:session:'

/**
 * An unstorage driver over a KeyValueStore, so @auth/unstorage-adapter (an official Auth.js adapter)
 * keeps users, sessions and verification tokens in the same Redis namespace or in-process map as the
 * other apps. unstorage hands the driver normalised keys (`a:b:c`).
 */
function keyValueDriver(store: KeyValueStore): Driver {
  return {
    name: 'authlab-key-value',
    hasItem: async (key) => (await store.get(key)) !== undefined,
    getItem: async (key) => (await store.get(key)) ?? null,
    setItem: (key, value) => store.set(key, value),
    removeItem: (key) => store.delete(key),
    getKeys: async (base) => (await store.keys()).filter((key) => key.startsWith(base)),
    clear: async (base) => {
      for (const key of await store.keys()) if (key.startsWith(base)) await store.delete(key)
    },
  }
}

/** The magic links Auth.js asked to send, last one per address: what a user would find in their mailbox. */
export class Outbox {
  readonly #links = new Map<string, string>()

  deliver(address: string, url: string): void {
    this.#links.set(address, url)
  }

  /** The last link sent to `address`, once: a second read finds none, as a used email is gone. */
  take(address: string): string | undefined {
    const link = this.#links.get(address)
    this.#links.delete(address)
    return link
  }
}

export interface AuthjsApp extends RunningApp {
  readonly outbox: Outbox
}

/**
 * Auth.js (@auth/core through @auth/express) with **database** sessions: with an adapter, Auth.js stores
 * each session under a token from `session.generateSessionToken` (@auth/core `lib/init.ts`, default
 * `crypto.randomUUID()`), and the `authjs.session-token` cookie holds that token as it is. Sign-in is a
 * magic link (an email provider whose messages land in `outbox`), because Auth.js refuses database
 * sessions for the credentials provider (@auth/core `lib/utils/assert.ts`, UnsupportedStrategy).
 */
export function authjsConfig(
  options: SessionAppOptions & { store: KeyValueStore },
  outbox: Outbox,
): ExpressAuthConfig {
  const { generateId, secret, maxAgeMs } = resolveSessionOptions(options)
  const emailLink: EmailConfig = {
    id: EMAIL_PROVIDER_ID,
    type: 'email',
    name: 'Email',
    from: 'sign-in@example.org',
    maxAge: 10 * 60,
    sendVerificationRequest: ({ identifier, url }) => outbox.deliver(identifier, url),
  }
  return {
    secret,
    // The app is reached as http://127.0.0.1:<port>: Auth.js must accept that host and plain HTTP.
    trustHost: true,
    useSecureCookies: false,
    basePath: AUTHJS_BASE_PATH,
    adapter: UnstorageAdapter(createStorage({ driver: keyValueDriver(options.store) })),
    providers: [emailLink],
    session: {
      strategy: 'database',
      maxAge: Math.ceil(maxAgeMs / 1000),
      generateSessionToken: () => generateId(),
    },
  }
}

export async function startAuthjsApp(
  options: SessionAppOptions,
  listen: ListenOptions = {},
): Promise<AuthjsApp> {
  const { store, owned } = sessionStore(resolveSessionOptions(options))
  const outbox = new Outbox()
  const config = authjsConfig({ ...options, store }, outbox)
  const app = express()
  app.disable('x-powered-by')
  app.use(AUTHJS_BASE_PATH, ExpressAuth(config))
  app.get('/me', async (request, response) => {
    const session = await getSession(request, config)
    if (session === null) {
      response.status(401).json({ error: 'no session' })
      return
    }
    response.json({ email: session.user?.email, expires: session.expires })
  })
  const running = await listenNode('authjs', app, listen, async () => {
    if (owned) await store.close()
  })
  return { ...running, outbox }
}
