import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as registry from '@authlab/workspace'

export { kindOf, nodeEngineProblem, nodeRequirement, readManifest, workspaceDirs } from '@authlab/workspace'

/** The monorepo root, found from this file so the checks also work inside a copy of the workspace. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')

/**
 * @typedef {import('@authlab/workspace').Manifest} Manifest
 * @typedef {import('@authlab/workspace').WorkspacePackage} WorkspacePackage
 */

/**
 * Every publishable package (today: everything under packages/), read from disk on every call, so a
 * package added by anyone is checked with no list to edit.
 * @param {string} [root]
 */
export function publishablePackages(root = REPO_ROOT) {
  return registry.publishablePackages(root)
}
