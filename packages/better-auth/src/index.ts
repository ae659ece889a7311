import { InvalidOptionError } from '@authlab/core'
import type { PasswordContext } from '@authlab/password-context'
import type { HookEndpointContext } from 'better-auth'
import { APIError, createAuthMiddleware } from 'better-auth/api'

// Apps branch on these errors' codes; re-exported so an app needs only this package.
export * from '@authlab/core/errors'

/** What better-auth's `emailAndPassword.password` takes (better-auth `types/options`: hash, verify). */
export interface BetterAuthPassword {
  hash(password: string): Promise<string>
  verify(data: { hash: string; password: string }): Promise<boolean>
}

/** What `authlabPassword`'s verify found for a stored hash: its replacement, or why it has none. */
type Upgrade = { readonly rehashed: string } | { readonly error: unknown }

/**
 * Upgrades found by `authlabPassword`'s verify, stored hash → its `current` replacement (or the error
 * that prevented one), waiting for the sign-in hook to write (or log) them: the hook then costs no
 * second verify. Shared per context, so the two halves configured with one context meet. Bounded: a
 * verify outside a sign-in (a password change checks the old one) leaves an entry nobody takes,
 * and the oldest go first.
 */
const pendingByContext = new WeakMap<PasswordContext, Map<string, Upgrade>>()
const PENDING_LIMIT = 1024

function pendingOf(context: PasswordContext): Map<string, Upgrade> {
  const pending = pendingByContext.get(context) ?? new Map<string, Upgrade>()
  pendingByContext.set(context, pending)
  return pending
}

/** Each `authlabPassword` verify function → its context: how the plugin checks better-auth uses it. */
const contextOfVerify = new WeakMap<object, PasswordContext>()

function checkContext(context: unknown, caller: string): PasswordContext {
  const c = context as Partial<PasswordContext> | null | undefined
  if (
    typeof c?.verify !== 'function' ||
    typeof c.hash !== 'function' ||
    typeof c.needsUpgrade !== 'function'
  ) {
    throw new InvalidOptionError(
      `${caller} needs a password context (createPasswordContext from @authlab/password-context)`,
    )
  }
  return context as PasswordContext
}

const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code

/**
 * A hasher that is full (an OverloadError: `maxConcurrent` derivations in flight, a worker pool's queue
 * full) or that did not start a job in time (a TimeoutError) is a temporary condition of the server,
 * not of the request: 503 Service Unavailable with Retry-After (RFC 9110 §15.6.4, §10.2.3), which
 * better-auth sends for an APIError with headers, where any other error is a 500.
 */
function busyAsUnavailable(error: unknown): unknown {
  const code = codeOf(error)
  if (code !== 'ERR_AUTHLAB_OVERLOAD' && code !== 'ERR_AUTHLAB_TIMEOUT') return error
  return new APIError(
    'SERVICE_UNAVAILABLE',
    {
      code: 'PASSWORD_CHECK_BUSY',
      message: 'Too many passwords are being checked at once: try again shortly',
    },
    { 'Retry-After': RETRY_AFTER_SECONDS },
  )
}

/** About one login's hashing: the time a slot in a full hasher takes to free. Whole seconds (RFC 9110 §10.2.3). */
const RETRY_AFTER_SECONDS = '1'

/**
 * better-auth's `emailAndPassword.password` from a password context: new users get the context's
 * `current` hash, and every format the context reads (bcrypt imports, better-auth's own default
 * `saltHex:keyHex`, scrypt, PBKDF2) still verifies. A successful verify of a legacy or weaker hash
 * leaves its replacement for `authlabRehash` to store. The context checks better-auth's own hashes in
 * NFKC, as better-auth made them, and keeps their upgrades NFKC, so every spelling that signed in
 * before still does; new passwords are hashed in NFC (the README's "What is normalised").
 */
export function authlabPassword(context: PasswordContext): BetterAuthPassword {
  const passwords = checkContext(context, 'authlabPassword')
  const pending = pendingOf(passwords)
  const password: BetterAuthPassword = {
    async hash(password) {
      try {
        return await passwords.hash(password)
      } catch (error) {
        // A new password `current` refuses (a lone surrogate; over 72 bytes for bcrypt) is the user's
        // to change: better-auth answers an APIError with its status, anything else with a 500.
        if (codeOf(error) !== 'ERR_AUTHLAB_PASSWORD_POLICY') throw busyAsUnavailable(error)
        throw APIError.from('BAD_REQUEST', { code: 'PASSWORD_REFUSED', message: (error as Error).message })
      }
    },
    async verify({ hash, password }) {
      const { valid, rehashed, upgradeError } = await passwords.verify(hash, password).catch((error) => {
        throw busyAsUnavailable(error)
      })
      if (valid && (rehashed !== undefined || upgradeError !== undefined)) {
        pending.delete(hash)
        pending.set(hash, rehashed !== undefined ? { rehashed } : { error: upgradeError })
        if (pending.size > PENDING_LIMIT) pending.delete(pending.keys().next().value as string)
      }
      return valid
    },
  }
  contextOfVerify.set(password.verify, passwords)
  return password
}

/**
 * The plugin as better-auth's `BetterAuthPlugin` takes it (@better-auth/core `types/plugin`: `init`, and
 * `hooks.before`/`hooks.after` of `{ matcher, handler: AuthMiddleware }`), spelled out so these
 * declarations never load better-auth's own: those need Bun's and Node 22's sqlite types, which a
 * strict consumer on Node 20 lacks.
 */
export interface AuthlabRehashPlugin {
  id: 'authlab-rehash'
  init: (authContext: unknown) => void
  hooks: {
    before: { matcher: (context: unknown) => boolean; handler: HookHandler }[]
    after: { matcher: (context: unknown) => boolean; handler: HookHandler }[]
  }
}

/** better-call's MiddlewareHandler, with its input left to better-auth (it builds the context). */
type HookHandler = (inputContext: unknown) => Promise<unknown>

/**
 * Every sign-in route better-auth and its plugins ship is under /sign-in/ (email, username,
 * phone-number, social, anonymous, magic link, email OTP), and none of them sets a password: where one
 * calls `password.hash`, it is to spend time on an account it did not find, and the hash is discarded
 * (better-auth `api/routes/sign-in.ts` and `plugins/username`: "User not found"). A prefix rather than a
 * list, so a sign-in route added later is covered too.
 */
const SIGN_IN = '/sign-in/'
const isSignIn = (ctx: unknown) => {
  const path = (ctx as Partial<HookEndpointContext> | undefined)?.path
  return typeof path === 'string' && path.startsWith(SIGN_IN)
}

/**
 * A better-auth plugin, for use with `authlabPassword` and the same context:
 * - after a successful sign-in (email, username, phone number), it stores the replacement
 *   `authlabPassword`'s verify made for a legacy or weaker hash, as a compare-and-swap (the update
 *   matches the account id AND the hash that was verified), so a password changed meanwhile is never
 *   overwritten;
 * - on a sign-in route, the "no such account" path spends a verify in the context's
 *   `missingUserFormat`, as a stored user's wrong password does, and refuses no password: a password
 *   `current` refuses answers as a wrong password on an existing account does.
 * Without `authlabPassword` verifying, better-auth's default verifier could not read the hashes it
 * writes and every upgraded user would be locked out: that configuration is refused when better-auth
 * starts, with an InvalidOptionError.
 */
export function authlabRehash(context: PasswordContext): AuthlabRehashPlugin {
  const passwords = checkContext(context, 'authlabRehash')
  const pending = pendingOf(passwords)
  /**
   * A sign-in route calls `password.hash` only to spend time when there is no stored hash (better-auth
   * api/routes/sign-in: "User not found", "Password not found"; plugins/username: "User not found") and
   * discards the result. This spends the context's missing-user verify instead, which costs what a
   * stored user's verify costs and refuses no password: `current`'s own hash would refuse a lone
   * surrogate with a 400 where an existing account answers 401. The empty string it returns is the
   * "no password set" value, never a hash.
   */
  const missingUserHash = async (password: string) => {
    await passwords.verify(null, password).catch((error) => {
      throw busyAsUnavailable(error)
    })
    return ''
  }
  return {
    id: 'authlab-rehash',
    init(authContext) {
      const verify = (authContext as { password?: { verify?: unknown } } | undefined)?.password?.verify
      if (typeof verify !== 'function' || contextOfVerify.get(verify) !== passwords) {
        throw new InvalidOptionError(
          'authlabRehash(context) needs emailAndPassword.password: authlabPassword(context), with the same ' +
            'context: another verifier cannot read the hashes it writes, and upgraded users could not sign in',
        )
      }
    },
    hooks: {
      before: [
        {
          matcher: isSignIn,
          // A before hook's `context` is merged into this request's endpoint context only
          // (better-auth api/dispatch, runBeforeHooks), so `hash` stays better-auth's everywhere else.
          handler: createAuthMiddleware(async (ctx) => ({
            context: { context: { password: { ...ctx.context.password, hash: missingUserHash } } },
          })) as HookHandler,
        },
      ],
      after: [
        {
          matcher: isSignIn,
          handler: createAuthMiddleware(async (ctx) => {
            const user = ctx.context.newSession?.user
            if (!user) return
            // The user is signed in already: a replacement that could not be made or written keeps the
            // old hash, which still verifies, and the next sign-in tries again. Logged without the hash
            // or the password.
            const notUpgraded = (error: unknown) =>
              ctx.context.logger.error('authlab-rehash: the stored password hash was not upgraded', {
                code: (error as { code?: unknown })?.code,
                message: (error as Error)?.message,
              })
            try {
              const account = await ctx.context.internalAdapter.findCredentialAccount(user.id)
              const stored = account?.password
              if (!account || !stored) return
              const upgrade = pending.get(stored)
              pending.delete(stored)
              if (upgrade === undefined) return
              if ('error' in upgrade) return notUpgraded(upgrade.error)
              await ctx.context.adapter.updateMany({
                model: 'account',
                where: [
                  { field: 'id', value: account.id },
                  { field: 'password', value: stored },
                ],
                update: { password: upgrade.rehashed, updatedAt: new Date() },
              })
            } catch (error) {
              notUpgraded(error)
            }
          }) as HookHandler,
        },
      ],
    },
  }
}
