import {
  base64urlIdShape,
  defineIdGenerator,
  entropyBitsOf,
  type IdGenerator,
  type IdGeneratorInfo,
} from '@authlab/core'
import { generateId as betterAuthGenerateId } from '@better-auth/core/utils/id'
import createFastifyIdGenerator from '@fastify/session/lib/idGenerator.js'
import { generateId as honoSessionGenerateId } from '@hono/session/cookies'
import Koa from 'koa'
import session, { type CreateSessionOptions } from 'koa-session'
import uid from 'uid-safe'

/** Where a framework's default session ID comes from, read from the code of the version pinned here. */
export interface FrameworkDefault {
  /** The framework and its session layer, as a reader looks for it. */
  readonly framework: string
  /** The npm package whose code makes the ID, and its version here (a test checks it is the installed one). */
  readonly package: string
  readonly version: string
  /** The default itself, callable, with its shape in `info`, so a bench measures it beside authlab's. */
  readonly generate: IdGenerator
  /**
   * Where the default is, in the published package of that version: the file, the line and the code on
   * that line (a test reads the installed file and checks the line holds it), and the upstream source file.
   */
  readonly source: {
    readonly file: string
    readonly line: number
    readonly code: string
    readonly upstream: string
  }
  /** Loaded from the framework's own code, or reproduced (not exported) with the line it reproduces. */
  readonly loaded: 'from the framework' | 'reproduced'
  /** The option that lets an app choose the ID instead, or why none does. */
  readonly option: string
}

const UUID_ALPHABET = '0123456789abcdef-'
/** RFC 9562 §5.4: 128 bits, 6 of them fixed (version and variant), printed as 36 characters. */
const UUID_V4 = { length: 36, alphabet: UUID_ALPHABET, entropyBits: 122, runsOn: 'main-thread' } as const

/** A function of its own per default (the descriptor is attached to it), calling the framework's code. */
function define(info: Omit<IdGeneratorInfo, 'runsOn'> & { runsOn?: 'main-thread' }, generate: () => string) {
  return defineIdGenerator({ info: { runsOn: 'main-thread', ...info }, generate: () => generate() })
}

/**
 * koa-session fills in `genid` on the options object it is given (`formatOptions`, after it has merged
 * the defaults into that same object), so its own default function is read from there.
 */
function koaSessionDefault(): () => string {
  const options: CreateSessionOptions = {}
  session(options, new Koa())
  const genid = options.genid
  if (typeof genid !== 'function') throw new Error('koa-session no longer fills in options.genid')
  return () => genid(undefined)
}

/** Web Crypto's `crypto.randomUUID()`, the global every runtime has: what h3, Auth.js and hono-sessions call. */
const webCryptoUuid = () => globalThis.crypto.randomUUID()

/** @hono/session's generateId: 20 random bytes, as 40 hex digits, base64-encoded (56 characters, `=` padded). */
const HONO_SESSION_ID_LENGTH = 56
const BASE64_PADDED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/='
const BETTER_AUTH_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'

const koaSession = (): FrameworkDefault => ({
  framework: 'Koa (koa-session, external store)',
  package: 'koa-session',
  version: '7.0.2',
  generate: define(
    {
      name: 'default:koa-session',
      displayName: "koa-session's default genid",
      wraps: 'node:crypto randomUUID()',
      randomness: 'OS-seeded CSPRNG, batched by Node',
      poolBytes: 2048,
      ...UUID_V4,
    },
    koaSessionDefault(),
  ),
  source: {
    file: 'dist/esm/index.js',
    line: 244,
    code: 'opts.genid = () => randomUUID();',
    upstream: 'src/index.ts:268',
  },
  loaded: 'from the framework',
  option: '`genid(ctx)`',
})

const h3 = (): FrameworkDefault => ({
  framework: 'h3 / Nuxt (useSession)',
  package: 'h3',
  version: '2.0.8',
  // h3 dist/h3.mjs:1340: `session.id = config.generateId?.() ?? (config.crypto || crypto).randomUUID()`,
  // inline in getSession, not exported.
  generate: define(
    {
      name: 'default:h3',
      displayName: "h3 useSession's default ID",
      wraps: 'Web Crypto crypto.randomUUID()',
      randomness: 'OS-seeded CSPRNG, batched by the runtime',
      poolBytes: 2048,
      ...UUID_V4,
    },
    webCryptoUuid,
  ),
  source: {
    file: 'dist/h3.mjs',
    line: 1340,
    code: 'config.generateId?.() ?? (config.crypto || crypto).randomUUID()',
    upstream: 'src/utils/session.ts (getSession)',
  },
  loaded: 'reproduced',
  option: '`generateId()` (or a `crypto` object whose `randomUUID` it calls)',
})

const authjs = (): FrameworkDefault => ({
  framework: 'Auth.js (database sessions)',
  package: '@auth/core',
  version: '0.41.3',
  // @auth/core lib/init.js:77: `generateSessionToken: () => crypto.randomUUID()`, inline, not exported.
  generate: define(
    {
      name: 'default:authjs',
      displayName: "Auth.js's default generateSessionToken",
      wraps: 'Web Crypto crypto.randomUUID()',
      randomness: 'OS-seeded CSPRNG, batched by the runtime',
      poolBytes: 2048,
      ...UUID_V4,
    },
    webCryptoUuid,
  ),
  source: {
    file: 'lib/init.js',
    line: 77,
    code: 'generateSessionToken: () => crypto.randomUUID(),',
    upstream: 'packages/core/src/lib/init.ts:120',
  },
  loaded: 'reproduced',
  option: '`session.generateSessionToken()`',
})

const honoSessions = (): FrameworkDefault => ({
  framework: 'Hono (hono-sessions)',
  package: 'hono-sessions',
  version: '0.8.1',
  // hono-sessions esm/src/Middleware.js:87 and :122: `sid = globalThis.crypto.randomUUID()`, inline.
  generate: define(
    {
      name: 'default:hono-sessions',
      displayName: "hono-sessions' session ID",
      wraps: 'Web Crypto crypto.randomUUID()',
      randomness: 'OS-seeded CSPRNG, batched by the runtime',
      poolBytes: 2048,
      ...UUID_V4,
    },
    webCryptoUuid,
  ),
  source: {
    file: 'esm/src/Middleware.js',
    line: 87,
    code: 'sid = globalThis.crypto.randomUUID();',
    upstream: 'src/Middleware.ts:94 (and :140, on rotation)',
  },
  loaded: 'reproduced',
  option: 'none: the middleware calls randomUUID itself, and a store receives the ID, it cannot pick it',
})

const honoSession = (): FrameworkDefault => ({
  framework: 'Hono (@hono/session)',
  package: '@hono/session',
  version: '0.2.1',
  generate: define(
    {
      name: 'default:hono-session',
      displayName: "@hono/session's default generateId",
      wraps: '20 bytes of crypto.getRandomValues as hex, base64-encoded (btoa)',
      length: HONO_SESSION_ID_LENGTH,
      alphabet: BASE64_PADDED,
      entropyBits: 160,
      randomness: 'Web Crypto getRandomValues, one call per ID',
      poolBytes: 0,
    },
    () => honoSessionGenerateId(),
  ),
  source: {
    file: 'dist/cookies-BErLZpT4.js',
    line: 83,
    code: 'function generateId(length = 20) {',
    upstream: 'packages/session/src/cookies.ts:116',
  },
  loaded: 'from the framework',
  option: '`useSession({ generateId })`',
})

const expressSession = (): FrameworkDefault => ({
  framework: 'NestJS on Express (express-session)',
  package: 'express-session',
  version: '1.19.0',
  // express-session index.js:533-535 `generateSessionId() { return uid(24) }` is not exported; its
  // `uid` is uid-safe's `sync` (index.js:24), called here from the same uid-safe 2.1.5.
  generate: define(
    {
      name: 'default:express-session',
      displayName: "express-session's default genid",
      wraps: 'uid-safe sync(24)',
      randomness: 'OS-seeded CSPRNG (crypto.randomBytes), one call per ID',
      poolBytes: 0,
      ...base64urlIdShape(24),
    },
    () => uid.sync(24),
  ),
  source: {
    file: 'index.js',
    line: 534,
    code: 'return uid(24);',
    upstream: 'index.js:534 (uid-safe `sync`)',
  },
  loaded: 'reproduced',
  option: '`genid(req)`',
})

const fastifySession = (): FrameworkDefault => ({
  framework: 'NestJS on Fastify (@fastify/session)',
  package: '@fastify/session',
  version: '11.1.3',
  generate: define(
    {
      name: 'default:fastify-session',
      displayName: "@fastify/session's default idGenerator",
      wraps: "@fastify/session's lib/idGenerator.js",
      randomness: 'OS-seeded CSPRNG (crypto.randomBytes), 3072-byte pool, one copy per ID',
      poolBytes: 3072,
      ...base64urlIdShape(24),
    },
    createFastifyIdGenerator(true),
  ),
  source: {
    file: 'lib/idGenerator.js',
    line: 21,
    code: 'cache.copy(buf, 0, pos, (pos += 24))',
    upstream: 'lib/idGenerator.js',
  },
  loaded: 'from the framework',
  option: '`idGenerator(request)`',
})

const betterAuth = (): FrameworkDefault => ({
  framework: 'better-auth',
  package: 'better-auth',
  version: '1.7.29',
  generate: define(
    {
      name: 'default:better-auth',
      displayName: "better-auth's session token",
      wraps: "@better-auth/core's generateId(32)",
      length: 32,
      alphabet: BETTER_AUTH_ALPHABET,
      entropyBits: entropyBitsOf(32, BETTER_AUTH_ALPHABET.length),
      randomness: 'crypto.getRandomValues, 64 bytes per call, rejection-sampled to 62 characters',
      poolBytes: 0,
    },
    () => betterAuthGenerateId(32),
  ),
  source: {
    file: 'dist/db/internal-adapter.mjs',
    line: 343,
    code: 'token: generateId(32),',
    upstream: 'packages/better-auth/src/db/internal-adapter.ts (createSession)',
  },
  loaded: 'from the framework',
  option: 'none for the token (`advanced.database.generateId` names rows, not the session token)',
})

/** Every framework's default session ID, as its pinned version makes it. */
export function frameworkDefaults(): readonly FrameworkDefault[] {
  return [
    koaSession(),
    h3(),
    authjs(),
    honoSessions(),
    honoSession(),
    expressSession(),
    fastifySession(),
    betterAuth(),
  ]
}
