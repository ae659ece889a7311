import { createRequire } from 'node:module'
import { InvalidOptionError, type Password, type PasswordHasher } from '@authlab/core'
import type { HashCandidate } from '../types.js'

/** better-auth's password module as the bench installs it: its own code is loaded, never retyped. */
const fromBench = createRequire(import.meta.url)

/**
 * better-auth's fixed scrypt parameters (@better-auth/utils `password.node.ts`: N=16384, r=16, p=1,
 * dkLen=64), in the keys of core's scrypt profile, so the bench's cost-equalised setting of the same
 * parameters runs it beside every scrypt implementation.
 */
const BETTER_AUTH_PARAMS = Object.freeze({ ln: 14, r: 16, p: 1 })

interface BetterAuthPassword {
  hashPassword(password: string): Promise<string>
  verifyPassword(hash: string, password: string): Promise<boolean>
}

const asText = (password: Password) =>
  typeof password === 'string' ? password : new TextDecoder('utf-8', { fatal: true }).decode(password)

/**
 * better-auth's default email-and-password hasher, `hashPassword`/`verifyPassword` from
 * @better-auth/utils/password. Under Node that export resolves to `password.node.mjs`, scrypt through
 * node:crypto (on the libuv threadpool); the salt is the 32-character hex string of 16 random bytes,
 * used as text, and the result is stored as `saltHex:keyHex`. Its parameters are fixed: it takes no
 * options.
 */
export function createBetterAuthHasher(options?: Record<string, unknown>): PasswordHasher {
  const keys = Object.keys(options ?? {})
  if (keys.length > 0) {
    throw new InvalidOptionError(
      `better-auth's hasher has fixed parameters and takes no options (got ${keys.join(', ')})`,
    )
  }
  const { hashPassword, verifyPassword } = fromBench('@better-auth/utils/password') as BetterAuthPassword
  return {
    info: {
      name: 'ref:better-auth-password',
      displayName: "better-auth's default hasher, scrypt N=2^14 r=16 [ref]",
      wraps: '@better-auth/utils/password hashPassword (node:crypto scrypt)',
      algorithm: 'scrypt',
      runsOn: 'threadpool',
      params: BETTER_AUTH_PARAMS,
    },
    hash: (password) => hashPassword(asText(password)),
    verify: (encoded, password) => verifyPassword(encoded, asText(password)),
    // The stored format carries no parameters to compare.
    needsRehash: () => false,
  }
}

const sameParams = (params: Readonly<Record<string, number>>) =>
  Object.keys(params).length === Object.keys(BETTER_AUTH_PARAMS).length &&
  Object.entries(BETTER_AUTH_PARAMS).every(([key, value]) => params[key] === value)

export const HASH_REFERENCES: readonly HashCandidate[] = [
  {
    id: 'ref:better-auth-password',
    label: "better-auth's default hasher, scrypt N=2^14 r=16 [ref]",
    create: createBetterAuthHasher,
    // It runs only its own parameters: in any other setting it is not a candidate at all.
    optionsFor: (algorithm, params) => (algorithm === 'scrypt' && sameParams(params) ? {} : undefined),
    source: { kind: 'reference' },
  },
]
