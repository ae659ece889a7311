import { execFileSync } from 'node:child_process'
import { availableParallelism, cpus, loadavg, release, type } from 'node:os'
import type { StrategyPackage } from '../types.js'

/** Everything a reader needs to interpret absolute figures. */
export interface Environment {
  readonly date: string
  readonly commit: string
  /** Uncommitted changes to tracked files at run time. */
  readonly dirty: boolean
  readonly cpu: string
  readonly cores: number
  readonly os: string
  readonly arch: string
  /** The Node running the harness, as it reports itself. */
  readonly runtime: string
  /** With --runtime: each runtime that ran, as it reported itself from inside (not as asked for). */
  readonly runtimes?: readonly { id: string; name: string; version: string }[]
  readonly loadAverage: readonly number[]
  readonly threadpool: string
  readonly mode: 'quick' | 'full'
  /** Every strategy package and each of its installed dependencies, name → version. */
  readonly packages: Readonly<Record<string, string>>
}

/** libuv's threadpool size as this process sees it: it bounds how many threadpool hashes run at once. */
export function threadpoolNote(env: NodeJS.ProcessEnv = process.env): string {
  const raw = env.UV_THREADPOOL_SIZE
  return raw === undefined ? 'UV_THREADPOOL_SIZE unset (libuv default 4)' : `UV_THREADPOOL_SIZE=${raw}`
}

function git(root: string, args: string[]): string {
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
export function loadAverage(): number[] {
  return loadavg().map((n) => Math.round(n * 100) / 100)
}

/** The runtime running this code as it reports itself: Bun and Deno also set process.version (to the
 * Node version they emulate), so their own version fields are asked first. */
export function runningRuntime(versions: NodeJS.ProcessVersions = process.versions): string {
  const own = versions as NodeJS.ProcessVersions & { bun?: string; deno?: string }
  if (own.bun) return `bun ${own.bun}`
  if (own.deno) return `deno ${own.deno}`
  return `node v${versions.node}`
}

export function captureEnvironment(
  root: string,
  packages: readonly StrategyPackage[],
  mode: 'quick' | 'full',
  toolVersions: Readonly<Record<string, string>>,
): Environment {
  const versions: Record<string, string> = { ...toolVersions }
  for (const pkg of packages) {
    versions[pkg.name] = pkg.version
    Object.assign(versions, pkg.dependencies)
  }
  return {
    date: new Date().toISOString(),
    commit: git(root, ['rev-parse', 'HEAD']) || 'unknown',
    // Tracked files only: the results of the previous run, not yet committed, made every later run read dirty.
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
