/**
 * Where each strategy package says it runs (`"authlab": { "runtimes", "notInWorkerd", "notInBrowsers",
 * "workerdAlgorithms" }` in its package.json), read from the workspace: the one source the runtime
 * runner's notes, the costs table's dashes and the advice per platform take a package's reasons from.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { discoverPackages, type StrategyPackage } from '@authlab/workspace'

export type RuntimeClaim = Pick<
  StrategyPackage,
  'name' | 'kind' | 'runtimes' | 'notInBrowsers' | 'notInWorkerd' | 'workerdAlgorithms'
>

/** Every strategy package's claim, by package name; empty outside a workspace (a copied results file). */
export function runtimeClaims(root: string): ReadonlyMap<string, RuntimeClaim> {
  if (!existsSync(join(root, 'package.json'))) return new Map()
  return new Map(discoverPackages(root).map((pkg) => [pkg.name, pkg]))
}

const BROWSERS: readonly string[] = ['chromium', 'firefox']

/**
 * Why `claim`'s package (or its `algorithm`) does not run in `runtime`, in its manifest's own words;
 * undefined where it claims it. A runtime it does not claim without a stated reason gets "not claimed".
 */
export function whyNotIn(claim: RuntimeClaim, runtime: string, algorithm?: string): string | undefined {
  const claimed = claim.runtimes.includes(runtime as never)
  if (runtime === 'workerd') {
    const partial = claim.workerdAlgorithms
    const runs = claimed && (algorithm === undefined || !partial || partial.includes(algorithm))
    if (!runs) return claim.notInWorkerd ?? 'its manifest does not claim workerd'
    return undefined
  }
  if (claimed) return undefined
  if (BROWSERS.includes(runtime) && claim.notInBrowsers) return claim.notInBrowsers
  return `its manifest does not claim ${runtime}`
}

/**
 * One note per package of `kinds` that has no cell in `runtime`, and per algorithm a package leaves
 * out there, each with its reason: every strategy has a cell or a stated reason.
 */
export function absentNotes(
  runtime: string,
  claims: Iterable<RuntimeClaim>,
  kinds: ReadonlySet<string>,
): string[] {
  const notes: string[] = []
  for (const claim of claims) {
    if (!kinds.has(claim.kind)) continue
    const why = whyNotIn(claim, runtime)
    if (why !== undefined) notes.push(`${claim.name} not in ${runtime}: ${why}`)
    else if (runtime === 'workerd' && claim.workerdAlgorithms)
      notes.push(
        `${claim.name} runs only ${claim.workerdAlgorithms.join(', ')} in workerd: ${claim.notInWorkerd ?? ''}`,
      )
  }
  return notes
}
