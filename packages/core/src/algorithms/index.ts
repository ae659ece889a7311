import { ARGON2ID } from './argon2id.js'
import { BCRYPT } from './bcrypt.js'
import { PBKDF2_SHA256 } from './pbkdf2.js'
import { registerAlgorithm } from './profile.js'
import { SCRYPT } from './scrypt.js'

// Core's own algorithms are registered when core loads, so `getAlgorithm(info.algorithm)` finds them.
for (const profile of [BCRYPT, SCRYPT, ARGON2ID, PBKDF2_SHA256]) registerAlgorithm(profile)

export * from './argon2id.js'
export * from './bcrypt.js'
export * from './pbkdf2.js'
export * from './profile.js'
export * from './scrypt.js'
