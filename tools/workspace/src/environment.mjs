import { execFileSync } from 'node:child_process'
import { availableParallelism, cpus, loadavg, release, type } from 'node:os'

/** libuv's threadpool size as this process sees it: it bounds how many threadpool hashes run at once. */
export function threadpoolNote(env = process.env) {
  const raw = env.UV_THREADPOOL_SIZE
  return raw === undefined ? 'UV_THREADPOOL_SIZE unset (libuv default 4)' : `UV_THREADPOOL_SIZE=${raw}`
}

/** @param {string} root @param {string[]} args */
function git(root, args) {
  try {
    return execFileSync('git', args, {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim()
  } catch {
    return ''
  }
}

/** The 1-, 5- and 15-minute load averages, rounded: on a shared machine every figure needs them beside it. */
export function loadAverage() {
  return loadavg().map((n) => Math.round(n * 100) / 100)
}

/** The runtime running this code as it reports itself: Bun and Deno also set process.version (to the
 * Node version they emulate), so their own version fields are asked first. */
export function runningRuntime(versions = process.versions) {
  const own = /** @type {NodeJS.ProcessVersions & { bun?: string, deno?: string }} */ (versions)
  if (own.bun) return `bun ${own.bun}`
  if (own.deno) return `deno ${own.deno}`
  return `node v${versions.node}`
}

/**
 * What a reader needs beside absolute figures: the commit, the machine, its load and every version.
 * @param {string} root
 * @param {readonly { name: string, version: string, dependencies: Readonly<Record<string, string>> }[]} packages
 * @param {'quick' | 'full'} mode
 * @param {Readonly<Record<string, string>>} toolVersions
 */
export function captureEnvironment(root, packages, mode, toolVersions) {
  /** @type {Record<string, string>} */
  const versions = { ...toolVersions }
  for (const pkg of packages) {
    versions[pkg.name] = pkg.version
    Object.assign(versions, pkg.dependencies)
  }
  return {
    date: new Date().toISOString(),
    commit: git(root, ['rev-parse', 'HEAD']) || 'unknown',
    // Tracked files only: results files not yet committed would make every later run read dirty.
    dirty: git(root, ['status', '--porcelain', '--untracked-files=no']) !== '',
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: availableParallelism(),
    os: `${type()} ${release()}`,
    arch: process.arch,
    runtime: runningRuntime(),
    loadAverage: loadAverage(),
    threadpool: threadpoolNote(),
    mode,
    packages: Object.fromEntries(Object.entries(versions).sort(([a], [b]) => a.localeCompare(b))),
  }
}
