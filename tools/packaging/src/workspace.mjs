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
 * Every publishable package: each directory under packages/ whose package.json is not private.
 * Read from disk on every call, so a package added by anyone is checked with no list to edit.
 * @param {string} [root]
 * @returns {WorkspacePackage[]}
 */
export function publishablePackages(root = REPO_ROOT) {
  const base = join(root, 'packages')
  return readdirSync(base, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(base, entry.name, 'package.json')))
    .map((entry) => ({ dir: join(base, entry.name), manifest: readManifest(join(base, entry.name)) }))
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
