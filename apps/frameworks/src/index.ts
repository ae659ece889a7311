import { startAuthjsApp } from './authjs.js'
import { startH3App } from './h3.js'
import { startHonoApp } from './hono.js'
import { startKoaApp } from './koa.js'
import { startNestExpressApp } from './nest-express.js'
import { startNestFastifyApp } from './nest-fastify.js'
import type { ListenOptions, RunningApp, SessionAppOptions } from './options.js'

export * from './authjs.js'
export * from './better-auth-hono.js'
export * from './defaults.js'
export * from './h3.js'
export * from './hono.js'
export * from './koa.js'
export * from './kv.js'
export * from './listen.js'
export * from './nest-express.js'
export * from './nest-fastify.js'
export * from './nest-login.js'
export * from './options.js'
export * from './postgres.js'
export * from './serve.js'
export { KeyValueSessionStore } from './session-store.js'

/** The frameworks whose session ID the app chooses, by name. */
export type SessionFramework = 'koa' | 'h3' | 'authjs' | 'nest-express' | 'nest-fastify' | 'hono'

/**
 * Every session-ID app behind one signature, so tests and benchmarks iterate over frameworks: each
 * starts a server with the given generator (h3 ignores `store`: its sessions live in the cookie).
 */
export const SESSION_APPS: Readonly<
  Record<SessionFramework, (options: SessionAppOptions, listen?: ListenOptions) => Promise<RunningApp>>
> = {
  koa: startKoaApp,
  h3: startH3App,
  authjs: startAuthjsApp,
  'nest-express': startNestExpressApp,
  'nest-fastify': startNestFastifyApp,
  hono: startHonoApp,
}
