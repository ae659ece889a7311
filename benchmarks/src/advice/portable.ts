import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { discoverPackages } from '@authlab/workspace'

/**
 * The hash packages whose manifests claim both browsers (`authlab.runtimes`): what runs at the edge or
 * in a page, where no native addon loads. Read from the workspace, as the packages declare it.
 */
export function portableHashers(root: string): ReadonlySet<string> {
  if (!existsSync(join(root, 'package.json'))) return new Set()
  return new Set(
    discoverPackages(root)
      .filter(
        (pkg) => pkg.kind === 'hash' && pkg.runtimes.includes('chromium') && pkg.runtimes.includes('firefox'),
      )
      .map((pkg) => pkg.name),
  )
}
