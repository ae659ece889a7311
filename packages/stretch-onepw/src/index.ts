import { createHasher as createPbkdf2 } from '@authlab/hash-pbkdf2'
import { createHasher as createScrypt } from '@authlab/hash-scrypt'
import { type OnepwStretcher, PBKDF2_ITERATIONS, SCRYPT_PARAMS, stretcherFactory } from './chain.js'

// Apps branch on these errors' codes; re-exported so a login route needs only this package.
export * from '@authlab/core/errors'
export type { OnepwKeys, OnepwOptions, OnepwStretcher } from './chain.js'

/** The chain; steps left out run on node:crypto (its libuv threadpool keeps the event loop free). */
export const createStretcher = stretcherFactory({
  scrypt: () => createScrypt(SCRYPT_PARAMS),
  pbkdf2: () => createPbkdf2({ iterations: PBKDF2_ITERATIONS }),
})

/** The chain with node:crypto for every step: `await stretcher.stretch(email, password, mainSalt)`. */
export const stretcher: OnepwStretcher = createStretcher()
