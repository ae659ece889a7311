import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { InvalidOptionError } from '@authlab/core'

/**
 * What each `"authlab": { "kind" }` means: the factory every package of that kind exports, and the
 * ready-made default (CONTRIBUTING.md, "Conventions for a strategy package"). Written once here, so
 * the bench, the store matrix, the packaging checks and the scaffold cannot disagree.
 */
export const KINDS = Object.freeze({
  id: Object.freeze({ label: 'session-ID generator', factory: 'createIdGenerator', ready: 'generateId' }),
  // A package implementing several algorithms exports them as ALGORITHMS and takes an `algorithm` option.
  hash: Object.freeze({
    label: 'password hasher',
    factory: 'createHasher',
    ready: 'hasher',
    algorithms: 'ALGORITHMS',
  }),
  stretch: Object.freeze({ label: 'key-stretching chain', factory: 'createStretcher', ready: undefined }),
})

/**
 * The runtimes a strategy can declare in `"authlab": { "runtimes" }`, in table order: `node` is the
 * Node running the caller (the workspace's own, the current LTS), `node24` and `node22` the pinned
 * earlier LTS lines, then Bun, Deno, the two headless browsers and workerd (Cloudflare's Workers
 * runtime). tools/runtimes starts each of them; the conformance run checks every claim on each.
 */
export const RUNTIMES = Object.freeze([
  'node',
  'node24',
  'node22',
  'bun',
  'deno',
  'chromium',
  'firefox',
  'workerd',
])
const BROWSERS = Object.freeze(['chromium', 'firefox'])

/** @param {string} dir */
export function readManifest(dir) {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
}

/**
 * The workspace directories with a package.json, from the root package.json `workspaces` globs (the
 * `dir/*` and plain `dir` forms this repository uses).
 * @param {string} root
 */
export function workspaceDirs(root) {
  /** @type {string[]} */
  const patterns = readManifest(root).workspaces ?? []
  return patterns.flatMap((pattern) => {
    if (!pattern.endsWith('/*'))
      return existsSync(join(root, pattern, 'package.json')) ? [resolve(root, pattern)] : []
    const parent = resolve(root, pattern.slice(0, -2))
    if (!existsSync(parent)) return []
    return readdirSync(parent)
      .map((name) => join(parent, name))
      .filter((dir) => existsSync(join(dir, 'package.json')))
  })
}

/**
 * Every workspace package with its manifest, sorted by name.
 * @param {string} root
 */
export function workspacePackages(root) {
  return workspaceDirs(root)
    .map((dir) => ({ dir, manifest: readManifest(dir) }))
    .sort((a, b) => String(a.manifest.name).localeCompare(String(b.manifest.name)))
}

/**
 * Every publishable package: each workspace whose package.json is not private.
 * @param {string} root
 */
export function publishablePackages(root) {
  return workspacePackages(root).filter(({ manifest }) => manifest.private !== true)
}

/**
 * The kind a package declares, checked: undefined when it declares none, an Error naming the file
 * for a kind outside KINDS.
 * @param {{ dir: string, manifest: import('./index.d.mts').Manifest }} pkg
 * @returns {import('./index.d.mts').Kind | undefined}
 */
export function kindOf({ dir, manifest }) {
  const kind = manifest.authlab?.kind
  if (kind === undefined) return undefined
  if (!Object.hasOwn(KINDS, kind) || !manifest.name) {
    // A typed error: the bench reports it as a usage problem (exit 2) instead of crashing.
    throw new InvalidOptionError(
      `${join(dir, 'package.json')}: "authlab.kind" must be one of ${Object.keys(KINDS).join(', ')} (got ${String(kind)})`,
    )
  }
  return /** @type {import('./index.d.mts').Kind} */ (kind)
}

/**
 * Where a strategy runs, checked: `"authlab": { "runtimes": [...] }` lists ids from RUNTIMES (always
 * `node`: every strategy is a Node package first), and a package that does not claim both browsers
 * says why in `"notInBrowsers"` (node:crypto, a native addon, worker_threads...), while one that does
 * has nothing to explain. workerd the same way: a package that does not claim it says why in
 * `"notInWorkerd"` (a native addon, worker_threads, WebAssembly compiled at run time...); one that claims
 * it for some of its algorithms only lists them in `"workerdAlgorithms"` and says why not the others in
 * `"notInWorkerd"`. Returns the problems, one line each (empty when the declaration is sound).
 * @param {import('./index.d.mts').Manifest} manifest
 * @returns {string[]}
 */
export function runtimeProblems(manifest) {
  const { runtimes, notInBrowsers } = manifest.authlab ?? {}
  if (!Array.isArray(runtimes) || runtimes.length === 0)
    return ['"authlab.runtimes" must list the runtimes it supports']
  /** @type {string[]} */
  const problems = []
  const unknown = runtimes.filter((id) => !RUNTIMES.includes(id))
  if (unknown.length > 0)
    problems.push(`"authlab.runtimes" has unknown ids ${unknown.join(', ')} (known: ${RUNTIMES.join(', ')})`)
  if (!runtimes.includes('node')) problems.push('"authlab.runtimes" must include "node"')
  if (new Set(runtimes).size !== runtimes.length) problems.push('"authlab.runtimes" lists a runtime twice')
  const inBrowsers = BROWSERS.every((id) => runtimes.includes(id))
  if (!inBrowsers && !isReason(notInBrowsers)) {
    problems.push('"authlab.notInBrowsers" must say why the package does not run in both browsers')
  }
  if (inBrowsers && notInBrowsers !== undefined)
    problems.push('"authlab.notInBrowsers" is set but both browsers are claimed')
  problems.push(...workerdProblems(manifest.authlab ?? {}, runtimes.includes('workerd')))
  const node = manifest.authlab?.node
  if (node !== undefined && !(typeof node === 'string' && /^>=\d+(\.\d+){0,2}$/.test(node)))
    problems.push('"authlab.node" must be a plain minimum such as ">=24.7"')
  return problems
}

/** A stated reason: a string with something in it. */
const isReason = (/** @type {unknown} */ value) => typeof value === 'string' && value.trim() !== ''

/**
 * The workerd half of runtimeProblems: `notInWorkerd` exactly when workerd is not claimed or claimed
 * for some algorithms only (`workerdAlgorithms`, a non-empty list of names).
 * @param {NonNullable<import('./index.d.mts').Manifest['authlab']>} authlab
 * @param {boolean} claimed
 */
function workerdProblems({ notInWorkerd, workerdAlgorithms }, claimed) {
  /** @type {string[]} */
  const problems = []
  const partial = workerdAlgorithms !== undefined
  if (
    partial &&
    !(Array.isArray(workerdAlgorithms) && workerdAlgorithms.length > 0 && workerdAlgorithms.every(isReason))
  )
    problems.push('"authlab.workerdAlgorithms" must list the algorithm names that run in workerd')
  if (partial && !claimed) problems.push('"authlab.workerdAlgorithms" is set but workerd is not claimed')
  if ((!claimed || partial) && !isReason(notInWorkerd))
    problems.push(
      claimed
        ? '"authlab.notInWorkerd" must say why the algorithms outside "workerdAlgorithms" do not run in workerd'
        : '"authlab.notInWorkerd" must say why the package does not run in workerd',
    )
  if (claimed && !partial && notInWorkerd !== undefined)
    problems.push('"authlab.notInWorkerd" is set but workerd is claimed for every algorithm')
  return problems
}

/**
 * The runtimes a strategy package declares, in RUNTIMES order; an Error naming the file when the
 * declaration is missing or unsound.
 * @param {{ dir: string, manifest: import('./index.d.mts').Manifest }} pkg
 * @returns {Pick<import('./index.d.mts').StrategyPackage, 'runtimes' | 'notInBrowsers' | 'notInWorkerd' | 'workerdAlgorithms'>}
 */
export function runtimesOf({ dir, manifest }) {
  const problems = runtimeProblems(manifest)
  if (problems.length > 0) throw new Error(`${join(dir, 'package.json')}: ${problems.join('; ')}`)
  const declared = /** @type {string[]} */ (manifest.authlab?.runtimes)
  return {
    runtimes: /** @type {import('./index.d.mts').RuntimeId[]} */ (
      RUNTIMES.filter((id) => declared.includes(id))
    ),
    notInBrowsers: manifest.authlab?.notInBrowsers,
    notInWorkerd: manifest.authlab?.notInWorkerd,
    workerdAlgorithms: manifest.authlab?.workerdAlgorithms,
  }
}

/**
 * The installed version of `dependency` as Node would resolve it from `dir` (nearest node_modules).
 * @param {string} dir @param {string} dependency
 */
export function installedVersion(dir, dependency) {
  for (let at = dir; ; at = resolve(at, '..')) {
    const file = join(at, 'node_modules', dependency, 'package.json')
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')).version ?? 'unknown'
    if (resolve(at, '..') === at) return 'not installed'
  }
}

/**
 * The Node a package needs to work: `authlab.node` when declared, else `engines.node`. They differ for
 * a strategy built on a newer Node's API (`crypto.argon2`, Node >= 24.7): it installs and loads on
 * every Node the workspace supports (`engines.node` `>=20.19`, so an install on Node 20 warns of
 * nothing: npm's EBADENGINE is about installing, https://docs.npmjs.com/cli/v11/configuring-npm/package-json#engines)
 * and refuses to be created, with a typed error, below `authlab.node`.
 * @param {import('./index.d.mts').Manifest} manifest
 * @returns {string | undefined}
 */
export function nodeRequirement(manifest) {
  return manifest.authlab?.node ?? manifest.engines?.node
}

/**
 * Why a package cannot run on Node `version` (default: the running one), from the minimum it needs
 * (`nodeRequirement`: `>=24.7`, say), or undefined when it can or when the range is not a plain
 * minimum: a strategy built on a newer Node API still loads on an older Node (and fails typed when
 * created), so the bench, the conformance runs and the packaging checks skip it there with this reason.
 * @param {{ nodeEngine?: string | undefined }} pkg @param {string} [version]
 * @returns {string | undefined}
 */
export function nodeEngineProblem(pkg, version = process.versions.node) {
  const minimum = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(pkg.nodeEngine?.trim() ?? '')
  if (!minimum) return undefined
  const want = minimum.slice(1).map((part) => Number(part ?? 0))
  const have = version.split('.').map(Number)
  for (let i = 0; i < 3; i++) {
    const a = have[i] ?? 0
    const b = want[i] ?? 0
    if (a > b) return undefined
    if (a < b) return `needs Node ${pkg.nodeEngine}, this is Node ${version}`
  }
  return undefined
}

/**
 * Every workspace package declaring `"authlab": { "kind" }`, sorted by name: declared metadata, not
 * a hand-kept list, so adding a package needs no edit in any consumer.
 * @param {string} root
 * @returns {import('./index.d.mts').StrategyPackage[]}
 */
export function discoverPackages(root) {
  return workspacePackages(root).flatMap((pkg) => {
    const kind = kindOf(pkg)
    if (kind === undefined) return []
    const { dir, manifest } = pkg
    const dependencies = Object.fromEntries(
      Object.keys(manifest.dependencies ?? {}).map((dep) => [dep, installedVersion(dir, dep)]),
    )
    return [
      {
        name: manifest.name,
        version: manifest.version ?? '0.0.0',
        kind,
        dir,
        dependencies,
        nodeEngine: nodeRequirement(manifest),
        ...runtimesOf(pkg),
      },
    ]
  })
}

/**
 * The ESM entry file a package exports (`exports["."].import`, falling back to `main`).
 * @param {{ dir: string }} pkg
 */
export function esmEntry({ dir }) {
  const manifest = readManifest(dir)
  const dot = manifest.exports?.['.'] ?? manifest.exports
  /** @param {unknown} value @returns {string | undefined} */
  const pick = (value) => {
    if (typeof value === 'string') return value
    if (value && typeof value === 'object') {
      const conditions = /** @type {Record<string, unknown>} */ (value)
      return pick(conditions.import) ?? pick(conditions.default)
    }
    return undefined
  }
  return join(dir, pick(dot) ?? manifest.main ?? 'index.js')
}

/**
 * Imports each package's built entry; an unbuilt or broken package is reported, not thrown.
 * @param {readonly import('./index.d.mts').StrategyPackage[]} packages
 * @returns {Promise<import('./index.d.mts').LoadOutcome[]>}
 */
export function loadPackages(packages) {
  return Promise.all(
    packages.map(async (pkg) => {
      const entry = esmEntry(pkg)
      if (!existsSync(entry)) return { ok: false, name: pkg.name, reason: `not built (${entry} missing)` }
      try {
        const exports = await import(pathToFileURL(entry).href)
        return { ok: true, pkg: { ...pkg, exports } }
      } catch (error) {
        return {
          ok: false,
          name: pkg.name,
          reason: `failed to load: ${/** @type {Error} */ (error).message}`,
        }
      }
    }),
  )
}

/**
 * The kind's factory a loaded package exports (`createHasher` for a hash package, ...); an Error
 * naming the package when it is missing.
 * @param {import('./index.d.mts').LoadedPackage} pkg
 * @returns {(options?: unknown) => unknown}
 */
export function factoryOf(pkg) {
  const name = KINDS[pkg.kind].factory
  const factory = pkg.exports[name]
  if (typeof factory !== 'function') throw new Error(`${pkg.name}: no ${name} export (kind "${pkg.kind}")`)
  return /** @type {(options?: unknown) => unknown} */ (factory)
}

/**
 * The algorithms a loaded hash package implements, as it declares them: its `ALGORITHMS` export (then
 * chosen with the `algorithm` option), else the one its default hasher reports.
 * @param {import('./index.d.mts').HashModule} pkg
 * @returns {readonly string[]}
 */
export function hashAlgorithms(pkg) {
  const declared = pkg.exports[KINDS.hash.algorithms]
  if (Array.isArray(declared)) return declared
  // The ready-made hasher says what it implements; a module without one (a user's --candidate file)
  // is asked through its factory's defaults.
  const factory = pkg.exports[KINDS.hash.factory]
  const hasher = /** @type {{ info?: { algorithm?: unknown } } | undefined} */ (
    pkg.exports[KINDS.hash.ready] ?? (typeof factory === 'function' ? factory() : undefined)
  )
  if (typeof hasher?.info?.algorithm !== 'string')
    throw new Error(`${pkg.name}: no ${KINDS.hash.ready} export with info.algorithm`)
  return [hasher.info.algorithm]
}

/**
 * The algorithms of a loaded hash package that run in runtime `id`, as its manifest claims: none where
 * it does not claim `id`; in workerd, those in `workerdAlgorithms` when it lists some; else all of
 * hashAlgorithms. The bench and the conformance runs ask here, so a partial claim is never guessed.
 * @param {import('./index.d.mts').LoadedPackage} pkg @param {string} id
 * @returns {readonly string[]}
 */
export function hashAlgorithmsIn(pkg, id) {
  if (!pkg.runtimes.includes(/** @type {import('./index.d.mts').RuntimeId} */ (id))) return []
  const all = hashAlgorithms(pkg)
  const only = id === 'workerd' ? pkg.workerdAlgorithms : undefined
  return only ? all.filter((algorithm) => only.includes(algorithm)) : all
}

/**
 * The options that make a loaded hash package hash with `algorithm` at `params` (cost parameters keyed
 * as in `info.params`), or undefined when it does not implement that algorithm: no guessing by
 * try/catch, since every option is checked strictly.
 * @param {import('./index.d.mts').HashModule} pkg @param {string} algorithm
 * @param {Readonly<Record<string, number>>} params
 * @returns {Record<string, unknown> | undefined}
 */
export function hashOptions(pkg, algorithm, params) {
  if (!hashAlgorithms(pkg).includes(algorithm)) return undefined
  return Array.isArray(pkg.exports[KINDS.hash.algorithms]) ? { algorithm, ...params } : { ...params }
}
export { captureEnvironment, loadAverage, runningRuntime, threadpoolNote } from './environment.mjs'
