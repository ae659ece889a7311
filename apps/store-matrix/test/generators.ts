import { resolve } from 'node:path'
import type { IdGenerator } from '@authlab/core'
import { discoverPackages, factoryOf, loadPackages } from '@authlab/workspace'
import type { GeneratorUnderTest } from '../src/index.js'

export const ROOT = resolve(import.meta.dirname, '../../..')

/**
 * Every workspace package declaring `"authlab": { "kind": "id" }`, with its default generator. A package
 * that is not built or does not load throws: a missing row must fail the run, not vanish from the matrix.
 */
export async function discoverGenerators(): Promise<GeneratorUnderTest[]> {
  const packages = discoverPackages(ROOT).filter((pkg) => pkg.kind === 'id')
  const loaded = await loadPackages(packages)
  return loaded.map((outcome) => {
    if (!outcome.ok) throw new Error(`${outcome.name}: ${outcome.reason}`)
    const generate = factoryOf(outcome.pkg)() as IdGenerator
    return { key: outcome.pkg.name, label: generate.info.displayName, generate }
  })
}
