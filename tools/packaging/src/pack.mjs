import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { REPO_ROOT } from './workspace.mjs'

/**
 * @typedef {{ name: string, version: string, filename: string, size: number, unpackedSize: number,
 *   entryCount: number, files: { path: string, size: number }[] }} PackResult
 */

/**
 * Runs one real `npm pack --json` over the given workspace packages (one npm process, not one per
 * package: npm's start-up dominates). With `dryRun` nothing is written and `tarball` is undefined.
 * @param {import('@authlab/workspace').WorkspacePackage[]} packages
 * @param {{ destination?: string, dryRun?: boolean, root?: string }} [options]
 * @returns {(PackResult & { tarball: string | undefined })[]}
 */
export function packPackages(packages, { destination, dryRun = false, root = REPO_ROOT } = {}) {
  if (packages.length === 0) return []
  const args = ['pack', '--json', '--ignore-scripts', ...packages.flatMap((pkg) => ['-w', pkg.dir])]
  if (dryRun) args.push('--dry-run')
  if (destination) args.push('--pack-destination', destination)
  const stdout = execFileSync('npm', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  /** @type {PackResult[]} */
  const results = JSON.parse(stdout)
  return results.map((result) => ({
    ...result,
    tarball: !dryRun && destination ? join(destination, result.filename) : undefined,
  }))
}

/**
 * The module formats a tarball ships, read from its file list: the dual build puts ESM in dist/esm
 * and CommonJS in dist/cjs (scripts/build-package.mjs); .d.ts files are counted per format.
 * @param {PackResult} result
 */
export function moduleFormats(result) {
  const has = (/** @type {RegExp} */ pattern) => result.files.some((file) => pattern.test(file.path))
  return [
    has(/^dist\/esm\/.*\.js$/) && 'ESM',
    has(/^dist\/esm\/.*\.d\.ts$/) && 'ESM types',
    has(/^dist\/cjs\/.*\.js$/) && 'CJS',
    has(/^dist\/cjs\/.*\.d\.ts$/) && 'CJS types',
  ].filter(Boolean)
}
