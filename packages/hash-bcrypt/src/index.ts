import {
  type BcryptOptions,
  defineBcryptHasher,
  formatBcryptSetting,
  type PasswordHasher,
} from '@authlab/core'
import bcrypt from 'bcrypt'

// Apps branch on these errors' codes; re-exported so a login route needs only this package.
export * from '@authlab/core/errors'

export type { BcryptOptions }

/**
 * bcrypt through the `bcrypt` package (node.bcrypt.js): OpenBSD's C code behind N-API. Its promise API
 * queues the work on the libuv threadpool, so the event loop stays free (UV_THREADPOOL_SIZE, default 4,
 * bounds how many hashes run at once).
 */
export function createHasher(options?: BcryptOptions): PasswordHasher {
  return defineBcryptHasher({
    describe: {
      name: '@authlab/hash-bcrypt',
      displayName: 'bcrypt (native C)',
      wraps: 'bcrypt@6 (N-API)',
      runsOn: 'threadpool',
    },
    // The library takes a crypt(3) "setting" string in place of a salt; a Buffer key passes the bytes as-is.
    engine: (password, cost, salt) => bcrypt.hash(Buffer.from(password), formatBcryptSetting(cost, salt)),
    options,
  })
}

/** bcrypt at cost 10 with the 72-byte policy: `await hasher.hash(password)`. */
export const hasher: PasswordHasher = createHasher()
