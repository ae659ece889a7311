import { InvalidOptionError } from '@authlab/core'
import type { PasswordContext } from '@authlab/password-context'
import type { HookEndpointContext } from 'better-auth'
import { createAuthMiddleware } from 'better-auth/api'

// Apps branch on these errors' codes; re-exported so an app needs only this package.
export * from '@authlab/core/errors'

/** What better-auth's `emailAndPassword.password` takes (better-auth `types/options`: hash, verify). */
export interface BetterAuthPassword {
  hash(password: string): Promise<string>
  verify(data: { hash: string; password: string }): Promise<boolean>
}

/**
 * Upgrades found by `authlabPassword`'s verify, stored hash → its `current` replacement, waiting for
 * the sign-in hook to write them: the hook then costs no second verify. Shared per context, so the
 * two halves configured with one context meet. Bounded: a verify outside email sign-in (a password
 * change checks the old one) leaves an entry nobody takes, and the oldest go first.
 */
const pendingByContext = new WeakMap<PasswordContext, Map<string, string>>()
const PENDING_LIMIT = 1024

function pendingOf(context: PasswordContext): Map<string, string> {
  const pending = pendingByContext.get(context) ?? new Map<string, string>()
  pendingByContext.set(context, pending)
  return pending
}

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

/**
 * better-auth's `emailAndPassword.password` from a password context: new users get the context's
 * `current` hash, and every format the context reads (bcrypt imports, better-auth's own default
 * `saltHex:keyHex`, scrypt, PBKDF2) still verifies. A successful verify of a legacy or weaker hash
 * leaves its replacement for `authlabRehash` to store.
 */
export function authlabPassword(context: PasswordContext): BetterAuthPassword {
  const passwords = checkContext(context, 'authlabPassword')
  const pending = pendingOf(passwords)
  return {
    hash: (password) => passwords.hash(password),
    async verify({ hash, password }) {
      const { valid, rehashed } = await passwords.verify(hash, password)
      if (valid && rehashed !== undefined) {
        pending.delete(hash)
        pending.set(hash, rehashed)
        if (pending.size > PENDING_LIMIT) pending.delete(pending.keys().next().value as string)
      }
      return valid
    },
  }
}

/**
 * The plugin as better-auth's `BetterAuthPlugin` takes it (@better-auth/core `types/plugin`: `hooks.after`
 * of `{ matcher, handler: AuthMiddleware }`), spelled out so these declarations never load better-auth's
 * own: those need Bun's and Node 22's sqlite types, which a strict consumer on Node 20 lacks.
 */
export interface AuthlabRehashPlugin {
  id: 'authlab-rehash'
  hooks: { after: { matcher: (context: unknown) => boolean; handler: AfterHookHandler }[] }
}

/** better-call's MiddlewareHandler, with its input left to better-auth (it builds the context). */
type AfterHookHandler = (inputContext: unknown) => Promise<unknown>

/** better-auth's email sign-in route (better-auth `api/routes/sign-in`, signInEmail). */
const SIGN_IN_EMAIL = '/sign-in/email'

/**
 * A better-auth plugin: after a successful email sign-in, replaces the user's stored hash with the
 * context's `current` one when it is legacy or weaker, as a compare-and-swap (the update matches the
 * account id AND the hash that was verified), so a password changed meanwhile is never overwritten.
 * With `authlabPassword` the replacement was made during the sign-in's own verify; without it (better-
 * auth's default hasher verifying), a hash the context would upgrade costs one more verify, once.
 */
export function authlabRehash(context: PasswordContext): AuthlabRehashPlugin {
  const passwords = checkContext(context, 'authlabRehash')
  const pending = pendingOf(passwords)
  return {
    id: 'authlab-rehash',
    hooks: {
      after: [
        {
          matcher: (ctx) => (ctx as HookEndpointContext).path === SIGN_IN_EMAIL,
          handler: createAuthMiddleware(async (ctx) => {
            const user = ctx.context.newSession?.user
            const password: unknown = ctx.body?.password
            if (!user || typeof password !== 'string') return
            try {
              const account = await ctx.context.internalAdapter.findCredentialAccount(user.id)
              const stored = account?.password
              if (!account || !stored) return
              let replacement = pending.get(stored)
              pending.delete(stored)
              if (replacement === undefined) {
                if (!passwords.needsUpgrade(stored)) return
                const { valid, rehashed } = await passwords.verify(stored, password)
                if (!valid || rehashed === undefined) return
                replacement = rehashed
              }
              await ctx.context.adapter.updateMany({
                model: 'account',
                where: [
                  { field: 'id', value: account.id },
                  { field: 'password', value: stored },
                ],
                update: { password: replacement, updatedAt: new Date() },
              })
            } catch (error) {
              // The user is signed in already; a failed upgrade keeps the old hash, which still
              // verifies, and is retried at the next sign-in. Logged without the hash or password.
              ctx.context.logger.error('authlab-rehash: the stored password hash was not upgraded', {
                code: (error as { code?: unknown })?.code,
                message: (error as Error)?.message,
              })
            }
          }) as AfterHookHandler,
        },
      ],
    },
  }
}
