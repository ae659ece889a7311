import 'reflect-metadata'
import fastifyCookie from '@fastify/cookie'
import fastifySession, { type FastifySessionOptions } from '@fastify/session'
import { Controller, Get, HttpCode, Module, Post, Req, UnauthorizedException } from '@nestjs/common'
import { NestFactory } from '@nestjs/core'
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify'
import type { FastifyRequest } from 'fastify'
import { urlOf } from './listen.js'
import {
  type ListenOptions,
  type RunningApp,
  resolveSessionOptions,
  type SessionAppOptions,
  sessionStore,
} from './options.js'
import { KeyValueSessionStore } from './session-store.js'

/** @fastify/session's default cookie name (`index.js`: `options.cookieName || 'sessionId'`). */
export const NEST_FASTIFY_COOKIE = 'sessionId'

type CountedSession = FastifyRequest['session'] & { visits?: number }

const sessionOf = (request: FastifyRequest) => request.session as CountedSession

/** The routes every session-ID app here serves, on NestJS's Fastify adapter with @fastify/session. */
@Controller()
class FastifySessionController {
  @Get()
  visit(@Req() request: FastifyRequest) {
    const data = sessionOf(request)
    data.visits = (data.visits ?? 0) + 1
    return { id: data.sessionId, visits: data.visits }
  }

  @Get('me')
  me(@Req() request: FastifyRequest) {
    const { visits, sessionId } = sessionOf(request)
    if (visits === undefined) throw new UnauthorizedException('no session')
    return { id: sessionId, visits }
  }

  /** @fastify/session's regenerate destroys the old ID in the store and calls `idGenerator` again (lib/session.js). */
  @Post('login')
  @HttpCode(200)
  async login(@Req() request: FastifyRequest) {
    const { sessionId: previousId, visits } = sessionOf(request)
    await request.session.regenerate()
    sessionOf(request).visits = visits ?? 0
    return { previousId }
  }

  @Post('logout')
  @HttpCode(204)
  async logout(@Req() request: FastifyRequest) {
    await request.session.destroy()
  }
}

@Module({ controllers: [FastifySessionController] })
class FastifySessionModule {}

/**
 * NestJS 12 on its Fastify adapter with @fastify/cookie and @fastify/session registered on the Fastify
 * instance (`app.register`): the session ID is @fastify/session's `idGenerator`.
 */
export async function startNestFastifyApp(
  options: SessionAppOptions,
  listen: ListenOptions = {},
): Promise<RunningApp> {
  const resolved = resolveSessionOptions(options)
  const { store, owned } = sessionStore(resolved)
  const app = await NestFactory.create<NestFastifyApplication>(FastifySessionModule, new FastifyAdapter(), {
    logger: false,
    abortOnError: false,
  })
  await app.register(fastifyCookie)
  await app.register(fastifySession, {
    secret: resolved.secret,
    idGenerator: () => resolved.generateId(),
    store: new KeyValueSessionStore(store, resolved.maxAgeMs) as FastifySessionOptions['store'],
    saveUninitialized: false,
    rolling: true,
    // Plain HTTP on 127.0.0.1: a secure cookie would never be sent back (RFC 6265bis §5.8.3).
    cookie: { secure: false, httpOnly: true, sameSite: 'lax', path: '/', maxAge: resolved.maxAgeMs },
  })
  await app.listen(listen.port ?? 0, listen.host ?? '127.0.0.1')
  return {
    framework: 'nest-fastify',
    url: urlOf(app.getHttpServer().address()),
    close: async () => {
      await app.close()
      if (owned) await store.close()
    },
  }
}
