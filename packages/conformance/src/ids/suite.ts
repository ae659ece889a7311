import { type Registration, registerChecks } from '../register.js'
import { idChecks } from './checks.js'
import { type IdCheckOptions, resolveOptions } from './options.js'

export interface IdGeneratorSuiteOptions extends IdCheckOptions, Registration {}

/**
 * Registers the session-ID conformance checks with the caller's test runner. Third parties run it
 * on their own generator:
 *
 *   const built = new URL('../dist/index.js', import.meta.url)
 *   const { createIdGenerator } = await import(built.href)
 *   idGeneratorSuite({ test, factory: createIdGenerator, workerModule: built })
 *
 * Pass the built module, as published, rather than its TypeScript source: a runner that transforms
 * source (Vitest) turns each imported binding into a property read, which made the checks' hot loops,
 * millions of IDs, two to three times slower. Imported by URL, so a typecheck of the tests does not
 * need the build.
 */
export function idGeneratorSuite(options: IdGeneratorSuiteOptions): void {
  const resolved = resolveOptions(options)
  registerChecks(options, options.name ?? resolved.factory().info.name, idChecks, resolved)
}
