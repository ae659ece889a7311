import { basename, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { type IdGenerator, InvalidOptionError, type PasswordHasher } from '@authlab/core'
import type { LoadedPackage, StrategyPackage } from '@authlab/workspace'
import { discoverPackages, hashOptions, loadPackages, nodeEngineProblem } from '@authlab/workspace'
import type {
  CandidateSource,
  Candidates,
  HashCandidate,
  IdCandidate,
  Skipped,
  StretchCandidate,
} from '../model/candidates.js'
import { isBaseline } from './baselines.js'
import { atLargerMemory, HASH_REFERENCE_SKIPS, HASH_REFERENCES } from './hash-references.js'
import { ID_REFERENCE_SKIPS, ID_REFERENCES } from './references.js'

export interface Assembled {
  readonly candidates: Candidates
  /** Packages that could not be used, with the reason (recorded in the results, never silently dropped). */
  readonly skipped: readonly Skipped[]
}

function labelOf(create: () => { info: { displayName: string } }, fallback: string): string {
  try {
    return create().info.displayName
  } catch {
    return fallback
  }
}

/** A module's conventional factories (`createIdGenerator`, `createHasher`) as candidates. */
function fromExports(
  id: string,
  exports: Readonly<Record<string, unknown>>,
  source: CandidateSource,
): { id?: IdCandidate; hasher?: HashCandidate } {
  const idFactory = exports.createIdGenerator
  const hashFactory = exports.createHasher
  const found: { id?: IdCandidate; hasher?: HashCandidate } = {}
  if (typeof idFactory === 'function') {
    const create = () => (idFactory as (options?: unknown) => IdGenerator)()
    found.id = { id, label: labelOf(create, id), create, source }
  }
  if (typeof hashFactory === 'function') {
    const create = (options?: Record<string, unknown>) =>
      (hashFactory as (o?: unknown) => PasswordHasher)(options)
    const optionsFor = (algorithm: string, params: Readonly<Record<string, number>>) =>
      hashOptions({ name: id, exports }, algorithm, params)
    found.hasher = { id, label: labelOf(create, id), create, optionsFor, source }
  }
  return found
}

/** Turns loaded packages into suite candidates by their conventional factory exports. */
export function assembleCandidates(packages: readonly LoadedPackage[], root: string): Assembled {
  const ids: IdCandidate[] = [...ID_REFERENCES]
  const hashers: HashCandidate[] = []
  const stretch: StretchCandidate[] = []
  const skipped: Skipped[] = []
  const source: CandidateSource = { kind: 'package', root }
  for (const pkg of packages) {
    // A strategy on a newer Node's API loads here but cannot be created: recorded, not measured.
    const tooOld = nodeEngineProblem(pkg)
    if (tooOld) {
      skipped.push({ name: pkg.name, reason: tooOld })
      continue
    }
    if (pkg.kind === 'stretch') {
      const factory = pkg.exports.createStretcher
      if (typeof factory === 'function') {
        stretch.push({ id: pkg.name, label: pkg.name, create: factory as StretchCandidate['create'] })
      } else skipped.push({ name: pkg.name, reason: 'kind "stretch" but no createStretcher export' })
      continue
    }
    const found = fromExports(pkg.name, pkg.exports, source)
    const candidate = pkg.kind === 'id' ? found.id : found.hasher
    const factory = pkg.kind === 'id' ? 'createIdGenerator' : 'createHasher'
    if (!candidate) skipped.push({ name: pkg.name, reason: `kind "${pkg.kind}" but no ${factory} export` })
    else if (pkg.kind === 'id') ids.push(candidate as IdCandidate)
    else hashers.push(candidate as HashCandidate)
  }
  // References after the packages: the http suite's ids servers take the first hasher, a package's.
  const all = [...hashers, ...HASH_REFERENCES]
  return {
    candidates: { ids, hashers: [...all, ...atLargerMemory(all)], stretch },
    skipped: [...skipped, ...ID_REFERENCE_SKIPS, ...HASH_REFERENCE_SKIPS],
  }
}

/**
 * A user's module given with `--candidate ./file.mjs`: benchmarked like a package if it exports
 * `createIdGenerator` and/or `createHasher`, keyed `key` (default `file:<file name>`). Anything else is
 * a usage error.
 */
export async function loadCandidateFile(
  file: string,
  key = `file:${basename(resolve(file))}`,
): Promise<{ ids: IdCandidate[]; hashers: HashCandidate[] }> {
  const path = resolve(file)
  let exports: Record<string, unknown>
  try {
    exports = (await import(pathToFileURL(path).href)) as Record<string, unknown>
  } catch (error) {
    throw new InvalidOptionError(`--candidate ${file}: cannot be imported (${(error as Error).message})`)
  }
  const found = fromExports(key, exports, { kind: 'file', file: path })
  if (!found.id && !found.hasher) {
    throw new InvalidOptionError(`--candidate ${file}: exports neither createIdGenerator nor createHasher`)
  }
  return { ids: found.id ? [found.id] : [], hashers: found.hasher ? [found.hasher] : [] }
}

export interface Loaded extends Assembled {
  readonly discovered: readonly StrategyPackage[]
}

/**
 * Discovers the workspace's strategy packages (only those named in `only`, when given), imports them and
 * any `--candidate` modules, and returns every candidate with the packages that could not be used.
 */
export async function loadCandidates(
  root: string,
  options: { readonly files?: readonly string[]; readonly only?: ReadonlySet<string> } = {},
): Promise<Loaded> {
  const only = options.only
  const discovered = discoverPackages(root).filter((pkg) => !only || only.has(pkg.name))
  const outcomes = await loadPackages(discovered)
  const packages = outcomes.flatMap((o): LoadedPackage[] => (o.ok ? [o.pkg] : []))
  const assembled = assembleCandidates(packages, root)
  const files = options.files ?? []
  const extra = await Promise.all(files.map((file, i) => loadCandidateFile(file, candidateKeys(files)[i])))
  const candidates: Candidates = {
    ids: [...assembled.candidates.ids, ...extra.flatMap((e) => e.ids)],
    hashers: [...assembled.candidates.hashers, ...extra.flatMap((e) => e.hashers)],
    stretch: assembled.candidates.stretch,
  }
  const failed = outcomes.flatMap((o) => (o.ok ? [] : [{ name: o.name, reason: o.reason }]))
  return { candidates, skipped: [...failed, ...assembled.skipped], discovered }
}

/**
 * Keeps candidates whose key or label contains `filter` (case-insensitive), plus every baseline so
 * the kept rows still have their same-run ratios. A filter that matches no candidate is a usage error.
 */
export function filterCandidates(candidates: Candidates, filter: string | undefined): Candidates {
  if (filter === undefined) return candidates
  const needle = filter.toLowerCase()
  const hit = (c: { id: string; label: string }) =>
    c.id.toLowerCase().includes(needle) || c.label.toLowerCase().includes(needle)
  const all = [...candidates.ids, ...candidates.hashers, ...candidates.stretch]
  if (!all.some(hit)) {
    const names = all.map((c) => c.id).join(', ')
    throw new InvalidOptionError(`--filter "${filter}" matches no candidate; candidates are: ${names}`)
  }
  const keep = <T extends { id: string; label: string }>(list: readonly T[]) =>
    list.filter((c) => hit(c) || isBaseline(c.id))
  return { ids: keep(candidates.ids), hashers: keep(candidates.hashers), stretch: keep(candidates.stretch) }
}

/**
 * `file:<file name>` for each `--candidate`, or `file:<path from here>` for files whose names clash
 * (`a/gen.mjs`, `b/gen.mjs`): two files sharing one key would share one row's figures.
 */
export function candidateKeys(files: readonly string[]): string[] {
  const names = files.map((file) => basename(resolve(file)))
  return files.map((file, i) =>
    names.indexOf(names[i] as string) === names.lastIndexOf(names[i] as string)
      ? `file:${names[i]}`
      : `file:${relative(process.cwd(), resolve(file)) || names[i]}`,
  )
}

/** Rebuilds one ids candidate from its id and source, in a measuring child process. */
export async function rebuildIdCandidate(id: string, source: CandidateSource): Promise<IdCandidate> {
  const list =
    source.kind === 'reference'
      ? ID_REFERENCES
      : source.kind === 'file'
        ? (await loadCandidateFile(source.file, id)).ids
        : (await loadCandidates(source.root, { only: new Set([id]) })).candidates.ids
  const candidate = list.find((c) => c.id === id)
  if (!candidate) throw new InvalidOptionError(`no ids candidate "${id}" in ${JSON.stringify(source)}`)
  return candidate
}
