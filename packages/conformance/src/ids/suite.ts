import type { TestFunction } from '../test-function.js'
import { type IdCheck, idChecks } from './checks.js'
import { type IdCheckOptions, resolveOptions } from './options.js'

export interface IdGeneratorSuiteOptions extends IdCheckOptions {
  /** The runner's test function, e.g. Vitest's `test`. */
  test: TestFunction
  /** Prefix for test names (default: the generator's package name). */
  name?: string
  /** Per-test timeout in ms (default 120 s: the checks take seconds, a 2-core CI box is slow). */
  timeout?: number
}

const TITLES: Record<keyof typeof idChecks, string> = {
  format: 'declares honest metadata; every ID has its length and [A-Za-z0-9_-] alphabet',
  uniqueness: 'no duplicates among 1,000,000 IDs across ≥ 10 pool refills',
  noByteReuse: 'no 64-bit run of random data is reused between IDs',
  uniformity: 'every character position is uniform (χ², p < 1e-6)',
  independence: 'consecutive IDs are uncorrelated (χ², p < 1e-6)',
  retainedMemory: 'sparse survivors retain ≤ 2× the heap of standalone strings',
  worksInWorker: 'works inside worker_threads without colliding with the main thread',
  asyncInterleaving: 'interleaved async callers get unique IDs',
}

/**
 * Registers the session-ID conformance checks with the caller's test runner (the pattern of
 * Level/abstract-level's exported suite). Third parties run it on their own generator:
 *
 *   idGeneratorSuite({ test, factory: () => myGenerator, workerModule: new URL('../dist/index.js', import.meta.url) })
 */
export function idGeneratorSuite(options: IdGeneratorSuiteOptions): void {
  const resolved = resolveOptions(options)
  const prefix = options.name ?? resolved.factory().info.name
  for (const [key, check] of Object.entries(idChecks) as [keyof typeof idChecks, IdCheck][]) {
    options.test(`${prefix}: ${TITLES[key]}`, () => check(resolved), options.timeout ?? 120_000)
  }
}
