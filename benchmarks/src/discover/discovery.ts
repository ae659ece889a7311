import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { InvalidOptionError } from '@authlab/core'
import type { LoadedPackage, StrategyPackage } from '../types.js'

const KINDS = new Set(['id', 'hash', 'stretch'])

interface PackageJson {
  name?: string
  version?: string
  workspaces?: string[]
  dependencies?: Record<string, string>
  exports?: unknown
  main?: string
  authlab?: { kind?: string }
}

function readJson(file: string): PackageJson {
  return JSON.parse(readFileSync(file, 'utf8')) as PackageJson
}

/** Workspace directories of the root package.json; supports the `dir/*` and plain `dir` forms npm uses here. */
function workspaceDirs(root: string): string[] {
  const patterns = readJson(join(root, 'package.json')).workspaces ?? []
  return patterns.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [resolve(root, pattern)]
    const parent = resolve(root, pattern.slice(0, -2))
    if (!existsSync(parent)) return []
    return readdirSync(parent, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(parent, entry.name))
  })
}

/** The installed version of `dependency` as Node would resolve it from `dir` (nearest node_modules). */
export function installedVersion(dir: string, dependency: string): string {
  for (let at = dir; ; at = resolve(at, '..')) {
    const file = join(at, 'node_modules', dependency, 'package.json')
    if (existsSync(file)) return readJson(file).version ?? 'unknown'
    if (resolve(at, '..') === at) return 'not installed'
  }
}

/**
 * Every workspace package declaring `"authlab": { "kind": "id" | "hash" | "stretch" }`, sorted by name.
 * Declared metadata, not a hand-kept list: adding a package needs no edit in the bench app.
 */
export function discoverPackages(root: string): StrategyPackage[] {
  const found: StrategyPackage[] = []
  for (const dir of workspaceDirs(root)) {
    const file = join(dir, 'package.json')
    if (!existsSync(file)) continue
    const pkg = readJson(file)
    const kind = pkg.authlab?.kind
    if (kind === undefined) continue
    if (!KINDS.has(kind) || !pkg.name) {
      throw new InvalidOptionError(
        `${file}: "authlab.kind" must be one of id, hash, stretch (got ${String(kind)})`,
      )
    }
    const dependencies = Object.fromEntries(
      Object.keys(pkg.dependencies ?? {}).map((dep) => [dep, installedVersion(dir, dep)]),
    )
    found.push({
      name: pkg.name,
      version: pkg.version ?? '0.0.0',
      kind: kind as StrategyPackage['kind'],
      dir,
      dependencies,
    })
  }
  return found.sort((a, b) => a.name.localeCompare(b.name))
}

/** The ESM entry file a package exports (`exports["."].import`, falling back to `main`). */
export function esmEntry(pkg: StrategyPackage): string {
  const json = readJson(join(pkg.dir, 'package.json'))
  const dot = (json.exports as Record<string, unknown> | undefined)?.['.'] ?? json.exports
  const pick = (value: unknown): string | undefined => {
    if (typeof value === 'string') return value
    if (value && typeof value === 'object') {
      const conditions = value as Record<string, unknown>
      return pick(conditions.import) ?? pick(conditions.default)
    }
    return undefined
  }
  return join(pkg.dir, pick(dot) ?? json.main ?? 'index.js')
}

export type LoadOutcome = { ok: true; pkg: LoadedPackage } | { ok: false; name: string; reason: string }

/** Imports each package's built entry; an unbuilt or broken package is reported, not fatal. */
export async function loadPackages(packages: readonly StrategyPackage[]): Promise<LoadOutcome[]> {
  return Promise.all(
    packages.map(async (pkg): Promise<LoadOutcome> => {
      const entry = esmEntry(pkg)
      if (!existsSync(entry)) return { ok: false, name: pkg.name, reason: `not built (${entry} missing)` }
      try {
        const exports = (await import(pathToFileURL(entry).href)) as Record<string, unknown>
        return { ok: true, pkg: { ...pkg, exports } }
      } catch (error) {
        return { ok: false, name: pkg.name, reason: `failed to load: ${(error as Error).message}` }
      }
    }),
  )
}
