import { type Registration, registerChecks } from '../register.js'
import { idChecks } from './checks.js'
import { type IdCheckOptions, resolveOptions } from './options.js'

export interface IdGeneratorSuiteOptions extends IdCheckOptions, Registration {}

/**
 * Registers the session-ID conformance checks with the caller's test runner. Third parties run it
 * on their own generator:
 *
 *   idGeneratorSuite({ test, factory: () => myGenerator, workerModule: new URL('../dist/index.js', import.meta.url) })
 */
export function idGeneratorSuite(options: IdGeneratorSuiteOptions): void {
  const resolved = resolveOptions(options)
  registerChecks(options, options.name ?? resolved.factory().info.name, idChecks, resolved)
}
