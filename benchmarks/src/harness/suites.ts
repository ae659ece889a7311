/**
 * The suites, found as strategies are: every folder of src/suites (a folder is a suite: its index
 * exports `suite`), every workspace package whose package.json declares `"authlab": { "benchSuites":
 * "<entry>" }` (its entry exports `suites`), and any folder a caller names. No list to edit.
 */
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { InvalidOptionError } from '@authlab/core'
import { workspacePackages } from '@authlab/workspace'
import type { AnySuite } from './suite.js'

const BUILT_IN = fileURLToPath(new URL('../suites/', import.meta.url))

/** A suite folder's entry: index.js where built, index.ts where the sources run (the tests). */
function entryOf(dir: string): string | undefined {
  return ['index.js', 'index.ts'].map((name) => join(dir, name)).find((file) => existsSync(file))
}

async function fromFolder(dir: string): Promise<AnySuite> {
  const entry = entryOf(dir)
  if (!entry) throw new InvalidOptionError(`suite folder ${dir} has no index.js`)
  const { suite } = (await import(pathToFileURL(entry).href)) as { suite?: AnySuite }
  if (!suite?.name) throw new InvalidOptionError(`${entry} exports no suite`)
  return suite
}

/** Suites a workspace package provides (the server suites, in a workspace of their own). */
async function fromWorkspace(root: string): Promise<AnySuite[]> {
  const found: AnySuite[] = []
  // A folder that is no workspace (a README's folder in a test) provides none.
  if (!existsSync(join(root, 'package.json'))) return found
  for (const { dir, manifest } of workspacePackages(root)) {
    const entry = (manifest.authlab as { benchSuites?: unknown } | undefined)?.benchSuites
    if (typeof entry !== 'string' || !existsSync(join(dir, entry))) continue
    const { suites } = (await import(pathToFileURL(join(dir, entry)).href)) as { suites?: AnySuite[] }
    found.push(...(suites ?? []))
  }
  return found
}

/** Every suite in run order: the built-in folders, the workspace's, and `extra` folders. */
export async function loadSuites(root: string, extra: readonly string[] = []): Promise<AnySuite[]> {
  const folders = readdirSync(BUILT_IN, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entryOf(join(BUILT_IN, entry.name)))
    .map((entry) => join(BUILT_IN, entry.name))
  const suites = [
    ...(await Promise.all([...folders, ...extra].map(fromFolder))),
    ...(await fromWorkspace(root)),
  ]
  return suites.sort((a, b) => a.order - b.order || a.name.localeCompare(b.name))
}

/** Picks suites by name; an unknown name is a usage error listing the known ones. */
export function selectSuites(all: readonly AnySuite[], names: readonly string[] | undefined): AnySuite[] {
  if (!names) return all.filter((s) => !s.onRequestOnly)
  return names.map((name) => {
    const suite = all.find((s) => s.name === name)
    if (!suite)
      throw new InvalidOptionError(
        `unknown suite "${name}"; suites are: ${all.map((s) => s.name).join(', ')}`,
      )
    return suite
  })
}
