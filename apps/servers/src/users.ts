import { isAuthlabError, type PasswordHasher } from '@authlab/core'

/** Bounds on what `POST /login` accepts, so a hostile body cannot make the hasher do unbounded work. */
export const MAX_USERNAME_LENGTH = 64
export const MAX_PASSWORD_LENGTH = 1024

export interface Credentials {
  readonly username: string
  readonly password: string
}

export type LoginResult =
  | { readonly ok: true; readonly username: string }
  | { readonly ok: false; readonly status: 400 | 401; readonly error: string }

export interface UserDirectory {
  readonly hasher: PasswordHasher
  verify(body: unknown): Promise<LoginResult>
}

function isBoundedString(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= max
}

/** A JSON body `{ username, password }` of bounded strings, or undefined. */
export function parseCredentials(body: unknown): Credentials | undefined {
  if (typeof body !== 'object' || body === null) return undefined
  const { username, password } = body as Record<string, unknown>
  if (!isBoundedString(username, MAX_USERNAME_LENGTH) || !isBoundedString(password, MAX_PASSWORD_LENGTH)) {
    return undefined
  }
  return { username, password }
}

/**
 * Hashes the given accounts once with `hasher` and checks logins against them. An unknown user is
 * verified against a dummy hash so the response time does not reveal which usernames exist (OWASP
 * Authentication Cheat Sheet, "Authentication Responses").
 */
export async function createUserDirectory(
  hasher: PasswordHasher,
  accounts: Readonly<Record<string, string>>,
): Promise<UserDirectory> {
  const hashes = new Map<string, string>()
  for (const [username, password] of Object.entries(accounts))
    hashes.set(username, await hasher.hash(password))
  const dummy = await hasher.hash('not-a-real-account-password')
  return {
    hasher,
    async verify(body) {
      const credentials = parseCredentials(body)
      if (!credentials)
        return { ok: false, status: 400, error: 'expected JSON { username, password } strings' }
      const stored = hashes.get(credentials.username)
      try {
        const matches = await hasher.verify(stored ?? dummy, credentials.password)
        if (matches && stored !== undefined) return { ok: true, username: credentials.username }
        return { ok: false, status: 401, error: 'invalid credentials' }
      } catch (error) {
        // A password refused by policy (e.g. bcrypt's 72-byte limit) is the client's fault; a malformed
        // stored hash or anything else is ours and becomes a 500.
        if (isAuthlabError(error) && error.code === 'ERR_AUTHLAB_PASSWORD_POLICY') {
          return { ok: false, status: 400, error: error.message }
        }
        throw error
      }
    },
  }
}
