import { resolve } from 'node:path'
import type { IdGenerator } from '@authlab/core'
// The bench app's discovery, reused rather than written twice (see apps/store-matrix/README.md).
import { discoverPackages, loadPackages } from '../../../benchmarks/src/discover/discovery.js'
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
    const create = outcome.pkg.exports.createIdGenerator
    if (typeof create !== 'function') throw new Error(`${outcome.pkg.name}: no createIdGenerator export`)
    const generate = (create as () => IdGenerator)()
    return { key: outcome.pkg.name, label: generate.info.displayName, generate }
  })
}
