import { resolve } from 'node:path'
import type { IdGenerator } from '@authlab/core'
import { discoverPackages, factoryOf, loadPackages } from '@authlab/workspace'
import type { GeneratorUnderTest } from '../src/index.js'

export const ROOT = resolve(import.meta.dirname, '../../..')

/**
 * The ID packages named in AUTHLAB_MATRIX_IDS (comma-separated), when set: the rows of one new package
 * without every other package's cells. Undefined means every ID package.
 */
export const ONLY_IDS = process.env.AUTHLAB_MATRIX_IDS?.split(',').filter(Boolean)

/**
 * Every workspace package declaring `"authlab": { "kind": "id" }` (or those ONLY_IDS names), with its
 * default generator. A package that is not built or does not load throws, and so does a name in ONLY_IDS
 * that is no ID package: a missing row must fail the run, not vanish from the matrix.
 */
export async function discoverGenerators(): Promise<GeneratorUnderTest[]> {
  const packages = discoverPackages(ROOT).filter(
    (pkg) => pkg.kind === 'id' && (ONLY_IDS === undefined || ONLY_IDS.includes(pkg.name)),
  )
  const unknown = ONLY_IDS?.filter((name) => !packages.some((pkg) => pkg.name === name)) ?? []
  if (unknown.length > 0) throw new Error(`AUTHLAB_MATRIX_IDS names no ID package: ${unknown.join(', ')}`)
  const loaded = await loadPackages(packages)
  return loaded.map((outcome) => {
    if (!outcome.ok) throw new Error(`${outcome.name}: ${outcome.reason}`)
    const generate = factoryOf(outcome.pkg)() as IdGenerator
    return { key: outcome.pkg.name, label: generate.info.displayName, generate }
  })
}
