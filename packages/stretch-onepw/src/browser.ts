// What bundlers resolve for browsers (the "browser" export condition): a browser has no node:crypto,
// so the steps left out run on Web Crypto (PBKDF2, off the main thread in every engine) and WASM
// (scrypt, which Web Crypto lacks). This is Mozilla's row [4] setting: scrypt compiled for the web.
import { createHasher as createWasm } from '@authlab/hash-wasm'
import { createHasher as createWebCrypto } from '@authlab/hash-webcrypto'
import { type OnepwStretcher, PBKDF2_ITERATIONS, SCRYPT_PARAMS, stretcherFactory } from './chain.js'

export * from '@authlab/core/errors'
export type { OnepwKeys, OnepwOptions, OnepwStretcher } from './chain.js'

/** The chain; steps left out run on Web Crypto (PBKDF2) and WASM (scrypt). */
export const createStretcher = stretcherFactory({
  scrypt: () => createWasm({ algorithm: 'scrypt', ...SCRYPT_PARAMS }),
  pbkdf2: () => createWebCrypto({ iterations: PBKDF2_ITERATIONS }),
})

/** The chain with Web Crypto and WASM steps: `await stretcher.stretch(email, password, mainSalt)`. */
export const stretcher: OnepwStretcher = createStretcher()
