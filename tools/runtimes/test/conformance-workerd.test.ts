import { runtimeConformance } from './runtime-conformance.js'

// Besides every claim: packages that load in workerd without claiming it must refuse with
// UnsupportedRuntimeError, each for its own reason: node:crypto has no argon2 there, Web Crypto no
// Argon2id, and onepw's browser build reaches hash-wasm's scrypt, which needs run-time compilation.
runtimeConformance('workerd', {
  refusedBy: ['@authlab/hash-node-crypto-argon2', '@authlab/hash-webcrypto-argon2', '@authlab/stretch-onepw'],
})
