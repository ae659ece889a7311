import { type Registration, registerChecks } from '../register.js'
import { hasherChecks } from './checks.js'
import { type HasherCheckOptions, resolveHasherOptions } from './options.js'

export interface HasherSuiteOptions extends HasherCheckOptions, Registration {}

/**
 * Registers the password-hasher conformance checks with the caller's test runner. Everything the
 * algorithm's profile knows (cheap and stronger parameters, vectors, policy, absurd cases) is the
 * default, so a strategy of a registered algorithm needs only
 *
 *   hasherSuite({ test, factory: createHasher })
 *
 * plus `peers` and `blockingParams` where it has them. `crossImplementation` is registered only when
 * `peers` are given: it is a declared capability, not a check that could pass vacuously.
 */
export function hasherSuite(options: HasherSuiteOptions): void {
  const resolved = resolveHasherOptions(options)
  const prefix = options.name ?? resolved.factory(resolved.cheapParams).info.name
  registerChecks(options, prefix, hasherChecks, resolved)
}
