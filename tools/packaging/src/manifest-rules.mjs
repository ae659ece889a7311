import { runtimeProblems } from '@authlab/workspace'

/**
 * What every published manifest needs beyond what publint checks: entry points with types first,
 * the published files, side effects, engines, license, where the source lives, a LICENSE file,
 * third-party ranges a consumer can deduplicate, and, for a strategy, the runtimes it runs on (with
 * the reason when that is not the browsers too, or not workerd: tools/workspace runtimeProblems). Returns one line per missing or wrong field (empty
 * when the package is fine).
 * @param {import('@authlab/workspace').Manifest} manifest
 * @param {string[]} packedFiles paths inside the tarball
 */
export function manifestProblems(manifest, packedFiles) {
  /** @type {string[]} */
  const problems = []
  const exportsRoot = /** @type {Record<string, unknown> | undefined} */ (manifest.exports)?.['.']
  if (!exportsRoot) problems.push('"exports" has no "." entry')
  else if (!typesComeFirst(exportsRoot)) problems.push('"exports" conditions must list "types" first')
  if (!Array.isArray(manifest.files)) problems.push('"files" is missing')
  // Lets bundlers drop an unused strategy entirely; strategies have no import-time side effects.
  if (manifest.sideEffects !== false) problems.push('"sideEffects" must be false')
  if (!(/** @type {{ node?: string }} */ (manifest.engines)?.node)) problems.push('"engines.node" is missing')
  if (!(/** @type {{ directory?: string }} */ (manifest.repository)?.directory)) {
    problems.push('"repository.directory" is missing')
  }
  if (typeof manifest.license !== 'string') problems.push('"license" is missing')
  if (!Array.isArray(manifest.keywords) || manifest.keywords.length === 0)
    problems.push('"keywords" is empty')
  if (!packedFiles.some((path) => /^readme\.md$/i.test(path)))
    problems.push('README.md is not in the tarball')
  if (!packedFiles.some((path) => /^licen[cs]e(\.md|\.txt)?$/i.test(path)))
    problems.push('LICENSE is not in the tarball')
  // The lockfile pins this repository; a published manifest that pins a third-party version exactly
  // stops consumers from deduplicating it or taking its patch releases.
  for (const [name, range] of Object.entries(manifest.dependencies ?? {})) {
    if (!name.startsWith('@authlab/') && /^\d/.test(range)) {
      problems.push(`dependency ${name} is pinned exactly (${range}): use a caret range`)
    }
  }
  // The bench and the cross-runtime conformance run read the claim; an unstated one is never guessed.
  if (manifest.authlab?.kind !== undefined) problems.push(...runtimeProblems(manifest))
  return problems
}

/**
 * TypeScript picks the first matching condition, so a "types" listed after "default" is never
 * seen (https://www.typescriptlang.org/docs/handbook/modules/reference.html#packagejson-exports).
 * @param {unknown} target
 * @returns {boolean}
 */
function typesComeFirst(target) {
  if (typeof target !== 'object' || target === null) return true
  const keys = Object.keys(target)
  const typesAt = keys.indexOf('types')
  if (typesAt > 0) return false
  return Object.values(target).every(typesComeFirst)
}
