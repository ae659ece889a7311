import { InvalidOptionError } from '../errors.js'
import { ARGON2ID } from './argon2id.js'
import { BCRYPT } from './bcrypt.js'
import { PBKDF2_SHA256 } from './pbkdf2.js'
import type { AlgorithmProfile } from './profile.js'
import { SCRYPT } from './scrypt.js'

// Core's own profiles are in the map from the start (no registration call at import time, so a
// bundler honouring `sideEffects: false` cannot drop it).
const registry = new Map<string, AlgorithmProfile>(
  [BCRYPT, SCRYPT, ARGON2ID, PBKDF2_SHA256].map((profile) => [profile.id, profile]),
)

/**
 * Makes a profile findable by id (the conformance suite and the bench look algorithms up by
 * `info.algorithm`). Registering the same object twice is a no-op; another profile under a taken id
 * is refused, so a package cannot silently replace core's caps for an algorithm.
 */
export function registerAlgorithm(profile: AlgorithmProfile): AlgorithmProfile {
  const existing = registry.get(profile.id)
  if (existing && existing !== profile) {
    throw new InvalidOptionError(`another profile is already registered for algorithm "${profile.id}"`)
  }
  registry.set(profile.id, Object.freeze(profile))
  return profile
}

/** The registered profile of `id`; InvalidOptionError naming the registered ones when there is none. */
export function getAlgorithm(id: string): AlgorithmProfile {
  const profile = registry.get(id)
  if (!profile) {
    throw new InvalidOptionError(
      `no profile is registered for algorithm "${id}" (registered: ${[...registry.keys()].join(', ')}); define one and pass it to registerAlgorithm or the hasher definer`,
    )
  }
  return profile
}

/** The registered profile of `id`, or undefined. */
export function findAlgorithm(id: string): AlgorithmProfile | undefined {
  return registry.get(id)
}

/** Every registered profile, in registration order (core's own first). */
export function listAlgorithms(): readonly AlgorithmProfile[] {
  return [...registry.values()]
}
