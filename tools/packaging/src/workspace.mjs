import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The monorepo root, found from this file so the checks also work inside a copy of the workspace. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')

/**
 * @typedef {{ name: string, version: string, private?: boolean, authlab?: { kind?: string },
 *   dependencies?: Record<string, string>, devDependencies?: Record<string, string>,
 *   workspaces?: string[], [key: string]: unknown }} Manifest
 * @typedef {{ dir: string, manifest: Manifest }} WorkspacePackage
 */

/** @param {string} dir @returns {Manifest} */
export function readManifest(dir) {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
}

/**
 * The workspace directories, from the root package.json `workspaces` globs (only the `dir/*` and
 * plain `dir` forms this repository uses).
 * @param {string} root
 */
export function workspaceDirs(root) {
  /** @type {string[]} */
  const patterns = readManifest(root).workspaces ?? []
  return patterns.flatMap((pattern) => {
    if (!pattern.endsWith('/*'))
      return existsSync(join(root, pattern, 'package.json')) ? [join(root, pattern)] : []
    const parent = join(root, pattern.slice(0, -2))
    if (!existsSync(parent)) return []
    return readdirSync(parent)
      .map((name) => join(parent, name))
      .filter((dir) => existsSync(join(dir, 'package.json')))
  })
}

/**
 * Every publishable package: each workspace whose package.json is not private (today: everything
 * under packages/). Read from disk on every call, so a package added by anyone is checked with no
 * list to edit.
 * @param {string} [root]
 * @returns {WorkspacePackage[]}
 */
export function publishablePackages(root = REPO_ROOT) {
  return workspaceDirs(root)
    .map((dir) => ({ dir, manifest: readManifest(dir) }))
    .filter(({ manifest }) => manifest.private !== true)
    .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name))
}

/**
 * The strategy kind a package declares in `"authlab": { "kind" }` (CONTRIBUTING.md), if any.
 * @param {WorkspacePackage} pkg
 */
export function kindOf(pkg) {
  return pkg.manifest.authlab?.kind
}
