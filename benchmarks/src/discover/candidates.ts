import { type IdGenerator, InvalidOptionError, type PasswordHasher } from '@authlab/core'
import type { Candidates, HashCandidate, IdCandidate, LoadedPackage, StretchCandidate } from '../types.js'
import { isBaseline } from './baselines.js'
import { ID_REFERENCES } from './references.js'

export interface Assembled {
  readonly candidates: Candidates
  /** Packages that could not be used, with the reason (recorded in the results, never silently dropped). */
  readonly skipped: readonly { name: string; reason: string }[]
}

function labelOf(create: () => { info: { displayName: string } }, fallback: string): string {
  try {
    return create().info.displayName
  } catch {
    return fallback
  }
}

/** Turns loaded packages into suite candidates by their conventional factory exports. */
export function assembleCandidates(packages: readonly LoadedPackage[]): Assembled {
  const ids: IdCandidate[] = [...ID_REFERENCES]
  const hashers: HashCandidate[] = []
  const stretch: StretchCandidate[] = []
  const skipped: { name: string; reason: string }[] = []
  for (const pkg of packages) {
    if (pkg.kind === 'id') {
      const factory = pkg.exports.createIdGenerator
      if (typeof factory !== 'function') {
        skipped.push({ name: pkg.name, reason: 'kind "id" but no createIdGenerator export' })
        continue
      }
      const create = () => (factory as (options?: unknown) => IdGenerator)()
      ids.push({ id: pkg.name, label: labelOf(create, pkg.name), create })
    } else if (pkg.kind === 'hash') {
      const factory = pkg.exports.createHasher
      if (typeof factory !== 'function') {
        skipped.push({ name: pkg.name, reason: 'kind "hash" but no createHasher export' })
        continue
      }
      const create = (options?: Record<string, unknown>) =>
        (factory as (o?: unknown) => PasswordHasher)(options)
      hashers.push({ id: pkg.name, label: labelOf(create, pkg.name), create })
    } else {
      stretch.push({ id: pkg.name, label: pkg.name, exports: pkg.exports })
    }
  }
  return { candidates: { ids, hashers, stretch }, skipped }
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
