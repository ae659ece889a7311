import 'reflect-metadata'
import { InvalidOptionError, isAuthlabError } from '@authlab/core'
import type { PasswordContext } from '@authlab/password-context'
import {
  BadRequestException,
  Body,
  ConflictException,
  Controller,
  type DynamicModule,
  Get,
  HttpCode,
  Inject,
  Injectable,
  Module,
  Post,
  Req,
  UnauthorizedException,
} from '@nestjs/common'
import { NestFactory } from '@nestjs/core'
import type { NestExpressApplication } from '@nestjs/platform-express'
import type { Request } from 'express'
import session from 'express-session'
import type pg from 'pg'
import { urlOf } from './listen.js'
import type { ListenOptions, RunningApp } from './options.js'

const PASSWORDS = Symbol('password context')
const DATABASE = Symbol('database pool')

/** The table the app keeps its accounts in, created by `startNestLoginApp` in the pool's schema. */
export const USERS_TABLE = 'nest_users'

/** Bounds on what the routes accept, so a hostile body cannot make the hasher do unbounded work. */
const MAX_EMAIL_LENGTH = 254
const MAX_PASSWORD_LENGTH = 1024

function credentials(body: unknown): { email: string; password: string } {
  const { email, password } = (body ?? {}) as Record<string, unknown>
  const bounded = (value: unknown, max: number): value is string =>
    typeof value === 'string' && value.length > 0 && value.length <= max
  if (!bounded(email, MAX_EMAIL_LENGTH) || !bounded(password, MAX_PASSWORD_LENGTH))
    throw new BadRequestException('expected JSON { email, password } strings')
  return { email: email.toLowerCase(), password }
}

/** Sign-up and login against the users table, through the password context. */
@Injectable()
export class UsersService {
  constructor(
    @Inject(PASSWORDS) private readonly passwords: PasswordContext,
    @Inject(DATABASE) private readonly pool: pg.Pool,
  ) {}

  /** False when the address is taken. A password `current` refuses (a lone surrogate) is a 400. */
  async signUp(email: string, password: string): Promise<boolean> {
    let hash: string
    try {
      hash = await this.passwords.hash(password)
    } catch (error) {
      if (isAuthlabError(error) && error.code === 'ERR_AUTHLAB_PASSWORD_POLICY')
        throw new BadRequestException(error.message)
      throw error
    }
    const inserted = await this.pool.query(
      `INSERT INTO ${USERS_TABLE} (email, password_hash) VALUES ($1, $2) ON CONFLICT (email) DO NOTHING`,
      [email, hash],
    )
    return inserted.rowCount === 1
  }

  /**
   * The context verifies the stored hash in whatever format it is (a missing user costs a dummy verify,
   * so timing does not tell), and hands back a `current` hash when the stored one is legacy. That
   * upgrade is a compare-and-swap on the value read, so a password changed meanwhile is never overwritten.
   */
  async logIn(email: string, password: string): Promise<boolean> {
    const found = await this.pool.query<{ password_hash: string }>(
      `SELECT password_hash FROM ${USERS_TABLE} WHERE email = $1`,
      [email],
    )
    const stored = found.rows[0]?.password_hash
    const { valid, rehashed, upgradeError } = await this.passwords.verify(stored, password)
    if (valid && rehashed && stored !== undefined) {
      await this.pool.query(
        `UPDATE ${USERS_TABLE} SET password_hash = $3 WHERE email = $1 AND password_hash = $2`,
        [email, stored, rehashed],
      )
    }
    if (upgradeError) console.warn('password hash not upgraded; the next login retries', upgradeError)
    return valid
  }
}

type UserSession = Request['session'] & { user?: string }

function promised(run: (done: (error?: unknown) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => run((error) => (error ? reject(error) : resolve())))
}

@Controller()
export class LoginController {
  constructor(@Inject(UsersService) private readonly users: UsersService) {}

  @Post('signup')
  @HttpCode(201)
  async signUp(@Body() body: unknown) {
    const { email, password } = credentials(body)
    if (!(await this.users.signUp(email, password))) throw new ConflictException('that address is taken')
  }

  @Post('login')
  @HttpCode(204)
  async logIn(@Body() body: unknown, @Req() request: Request) {
    const { email, password } = credentials(body)
    if (!(await this.users.logIn(email, password))) throw new UnauthorizedException('invalid credentials')
    // OWASP Session Management Cheat Sheet: renew the session ID on login (defeats session fixation).
    await promised((done) => request.session.regenerate(done))
    ;(request.session as UserSession).user = email
  }

  @Get('me')
  me(@Req() request: Request) {
    const user = (request.session as UserSession).user
    if (user === undefined) throw new UnauthorizedException('not logged in')
    return { user }
  }

  @Post('logout')
  @HttpCode(204)
  async logOut(@Req() request: Request) {
    await promised((done) => request.session.destroy(done))
  }
}

@Module({})
class LoginModule {
  static with(passwords: PasswordContext, pool: pg.Pool): DynamicModule {
    return {
      module: LoginModule,
      controllers: [LoginController],
      providers: [
        { provide: PASSWORDS, useValue: passwords },
        { provide: DATABASE, useValue: pool },
        UsersService,
      ],
    }
  }
}

export interface NestLoginOptions {
  /** The hashers: new passwords get `current`; legacy hashes verify and are upgraded on login. */
  readonly passwords: PasswordContext
  /** Where the users table lives (created if missing): a pool whose search_path is the app's schema. */
  readonly pool: pg.Pool
  /** Signs the session cookie; at least 32 characters. */
  readonly secret: string
}

/**
 * A NestJS 12 login (Express adapter, express-session) whose password check is @authlab/password-context:
 * `POST /signup`, `POST /login` (verify, upgrade a legacy hash, regenerate the session), `GET /me`,
 * `POST /logout`.
 */
export async function startNestLoginApp(
  options: NestLoginOptions,
  listen: ListenOptions = {},
): Promise<RunningApp> {
  const { passwords, pool, secret } = options
  if (typeof secret !== 'string' || secret.length < 32)
    throw new InvalidOptionError('secret must be a string of at least 32 characters')
  await pool.query(
    `CREATE TABLE IF NOT EXISTS ${USERS_TABLE} (email text PRIMARY KEY, password_hash text NOT NULL)`,
  )
  const app = await NestFactory.create<NestExpressApplication>(LoginModule.with(passwords, pool), {
    logger: false,
    abortOnError: false,
  })
  app.use(
    session({
      secret,
      resave: false,
      saveUninitialized: false,
      // Plain HTTP on 127.0.0.1: a secure cookie would never be sent back (RFC 6265bis §5.8.3).
      cookie: { secure: false, httpOnly: true, sameSite: 'lax' },
    }),
  )
  await app.listen(listen.port ?? 0, listen.host ?? '127.0.0.1')
  return { framework: 'nest-login', url: urlOf(app.getHttpServer().address()), close: () => app.close() }
}
