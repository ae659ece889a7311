import { type BcryptOptions, defineBcryptHasher, type PasswordHasher } from '@authlab/core'
import { hash } from '@node-rs/bcrypt'

// Apps branch on these errors' codes; re-exported so a login route needs only this package.
export * from '@authlab/core/errors'

export type { BcryptOptions }

/**
 * bcrypt through `@node-rs/bcrypt`: the Rust `bcrypt` crate behind napi-rs. Its async functions are
 * napi AsyncTasks, which run on the libuv threadpool, so the event loop stays free.
 */
export function createHasher(options?: BcryptOptions): PasswordHasher {
  return defineBcryptHasher({
    describe: {
      name: '@authlab/hash-node-rs-bcrypt',
      displayName: 'bcrypt (Rust)',
      wraps: '@node-rs/bcrypt@2 (napi-rs)',
      runsOn: 'threadpool',
    },
    engine: (password, cost, salt) => hash(password, { cost, salt }),
    options,
  })
}

/** bcrypt at cost 10 with the 72-byte policy: `await hasher.hash(password)`. */
export const hasher: PasswordHasher = createHasher()
