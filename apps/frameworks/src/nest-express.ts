import 'reflect-metadata'
import { Controller, Get, HttpCode, Module, Post, Req, UnauthorizedException } from '@nestjs/common'
import { NestFactory } from '@nestjs/core'
import type { NestExpressApplication } from '@nestjs/platform-express'
import type { Request } from 'express'
import session from 'express-session'
import { urlOf } from './listen.js'
import {
  type ListenOptions,
  type RunningApp,
  resolveSessionOptions,
  type SessionAppOptions,
  sessionStore,
} from './options.js'
import { KeyValueSessionStore } from './session-store.js'

export const NEST_EXPRESS_COOKIE = 'connect.sid'

type CountedSession = Request['session'] & { visits?: number }

const visitsOf = (request: Request) => request.session as CountedSession

function promised(run: (done: (error?: unknown) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => run((error) => (error ? reject(error) : resolve())))
}

/** The routes every session-ID app here serves, on NestJS's Express adapter with express-session. */
@Controller()
class ExpressSessionController {
  @Get()
  visit(@Req() request: Request) {
    const data = visitsOf(request)
    data.visits = (data.visits ?? 0) + 1
    return { id: request.sessionID, visits: data.visits }
  }

  @Get('me')
  me(@Req() request: Request) {
    const { visits } = visitsOf(request)
    if (visits === undefined) throw new UnauthorizedException('no session')
    return { id: request.sessionID, visits }
  }

  /** express-session's regenerate destroys the old ID in the store and calls genid again (index.js `store.regenerate`). */
  @Post('login')
  @HttpCode(200)
  async login(@Req() request: Request) {
    const previousId = request.sessionID
    const { visits } = visitsOf(request)
    await promised((done) => request.session.regenerate(done))
    visitsOf(request).visits = visits ?? 0
    return { previousId }
  }

  @Post('logout')
  @HttpCode(204)
  async logout(@Req() request: Request) {
    await promised((done) => request.session.destroy(done))
  }
}

@Module({ controllers: [ExpressSessionController] })
class ExpressSessionModule {}

/**
 * NestJS 12 on its Express adapter (Nest's default) with express-session, as NestJS's session
 * documentation sets it up (`app.use(session(…))`): the session ID is express-session's `genid`.
 */
export async function startNestExpressApp(
  options: SessionAppOptions,
  listen: ListenOptions = {},
): Promise<RunningApp> {
  const resolved = resolveSessionOptions(options)
  const { store, owned } = sessionStore(resolved)
  const app = await NestFactory.create<NestExpressApplication>(ExpressSessionModule, {
    logger: false,
    abortOnError: false,
  })
  app.use(
    session({
      name: NEST_EXPRESS_COOKIE,
      secret: resolved.secret,
      genid: () => resolved.generateId(),
      store: new KeyValueSessionStore(store, resolved.maxAgeMs),
      resave: false,
      saveUninitialized: false,
      rolling: true,
      // Plain HTTP on 127.0.0.1: a secure cookie would never be sent back (RFC 6265bis §5.8.3).
      cookie: { secure: false, httpOnly: true, sameSite: 'lax', maxAge: resolved.maxAgeMs },
    }),
  )
  await app.listen(listen.port ?? 0, listen.host ?? '127.0.0.1')
  return {
    framework: 'nest-express',
    url: urlOf(app.getHttpServer().address()),
    close: async () => {
      await app.close()
      if (owned) await store.close()
    },
  }
}
