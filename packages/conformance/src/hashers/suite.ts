import type { TestFunction } from '../test-function.js'
import { type HasherCheck, hasherChecks } from './checks.js'
import { type HasherCheckOptions, resolveHasherOptions } from './options.js'

export interface HasherSuiteOptions extends HasherCheckOptions {
  /** The runner's test function, e.g. Vitest's `test`. */
  test: TestFunction
  /** Prefix for test names (default: the hasher's package name). */
  name?: string
  /** Per-test timeout in ms (default 120 s: some checks run several hashes on a slow 2-core CI box). */
  timeout?: number
}

const TITLES: Record<keyof typeof hasherChecks, string> = {
  metadata: 'declares complete metadata with the configured cost parameters',
  knownAnswers: 'verifies the published known-answer vectors',
  roundTrip: 'hash → verify round trip (string and bytes), salted',
  wrongPassword: 'wrong and near-miss passwords verify false',
  unicodeAndNul: 'unicode byte-exact, NUL per policy, lone surrogates refused',
  emptyPassword: 'empty password follows the declared policy',
  lengthPolicy: 'every byte up to the policy maximum counts; beyond it PasswordPolicyError, never truncation',
  oversizedPassword: '1 MB password: clear error or correct result, no stall',
  hostileHashes: 'malformed and absurd stored hashes get typed errors within 1 s',
  needsRehash: 'needsRehash exactly when stored parameters are weaker or the algorithm differs',
  crossImplementation: 'peers verify each other’s hashes',
  runsOn: 'declared runsOn matches measured event-loop blocking',
}

/**
 * Registers the password-hasher conformance checks with the caller's test runner (the pattern of
 * Level/abstract-level's exported suite). Third parties run it on their own hasher:
 *
 *   hasherSuite({ test, factory: (p) => createHasher(p), cheapParams: { ln: 10, r: 8, p: 1 },
 *     strongerParams: { ln: 11, r: 8, p: 1 }, vectors: SCRYPT_VECTORS })
 *
 * `crossImplementation` is registered only when `peers` are given: it is a declared capability,
 * not a check that could pass vacuously.
 */
export function hasherSuite(options: HasherSuiteOptions): void {
  const resolved = resolveHasherOptions(options)
  const prefix = options.name ?? resolved.factory(resolved.cheapParams).info.name
  for (const [key, check] of Object.entries(hasherChecks) as [keyof typeof hasherChecks, HasherCheck][]) {
    if (key === 'crossImplementation' && resolved.peers.length === 0) continue
    options.test(`${prefix}: ${TITLES[key]}`, () => check(resolved), options.timeout ?? 120_000)
  }
}
