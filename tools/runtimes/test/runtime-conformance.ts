import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  discoverPackages,
  type LoadedPackage,
  loadPackages,
  nodeEngineProblem,
  type RuntimeId,
} from '@authlab/workspace'
import { beforeAll, expect, test } from 'vitest'
import { requireRuntime, skipReason } from '../src/availability.mjs'
import { judge, judgeRefusals, planFor, refusalPlanFor } from '../src/conformance-node.mjs'
import { writeConformanceEntry } from '../src/entry.mjs'
import { runInRuntime } from '../src/index.mjs'

// One test file per runtime (conformance-<id>.test.ts) registers this, so the runtimes' runs, each
// tens of seconds of a child process, spread over both Vitest workers instead of queuing in one file.
// Each runtime runs, at a small budget, the checks that do not need Node's test runner: format,
// known answers, cross-verification against Node's own hashers, and the event-loop (runsOn) claim,
// for every package whose manifest claims that runtime. The statistical ID checks stay in each
// package's own suite on Node. A runtime that cannot start fails here: every claim is checked.
// What a package does not claim there must fail typed (UnsupportedRuntimeError), never any other way:
// a hash package's algorithms outside its claim (workerdAlgorithms), and the packages named in
// `refusedBy`, which do not claim the runtime and still load in it.
export function runtimeConformance(id: RuntimeId, { refusedBy = [] }: { refusedBy?: string[] } = {}): void {
  const REPO = fileURLToPath(new URL('../../../', import.meta.url))
  let loaded: LoadedPackage[] = []

  beforeAll(async () => {
    const outcomes = await loadPackages(discoverPackages(REPO))
    const broken = outcomes.flatMap((o) => (o.ok ? [] : [`${o.name}: ${o.reason}`]))
    if (broken.length > 0) throw new Error(`strategy packages failed to load on Node:\n${broken.join('\n')}`)
    loaded = outcomes.flatMap((o) => (o.ok ? [o.pkg] : []))
  })

  test(`${id}: every package claiming it passes format, known-answer, cross-verify and runsOn checks`, {
    timeout: 180_000,
  }, async ({ skip }) => {
    const reason = skipReason(id)
    skip(reason !== undefined, reason)
    const target = requireRuntime(id)
    const claiming = loaded.filter((pkg) => pkg.runtimes.includes(id))
    const plans: Record<string, Awaited<ReturnType<typeof planFor>>> = {}
    for (const pkg of claiming) {
      // `node` is the Node running this test, which may be older than a package needs: that package is
      // checked where its claim holds (node24 and up).
      const tooOld = id === 'node' ? nodeEngineProblem(pkg) : undefined
      plans[pkg.name] = tooOld ? { skip: tooOld } : await planFor(pkg, loaded, id)
    }
    for (const [name, p] of Object.entries(plans)) {
      if ('skip' in p) console.log(`${id}: ${name} skipped: ${p.skip}`)
    }
    const runnable = claiming.filter((pkg) => 'plan' in (plans[pkg.name] ?? {}))
    expect(runnable.length, `no package claims ${id}`).toBeGreaterThan(0)
    const refusals = refusalsIn(id, loaded, runnable, refusedBy)
    const entry = writeConformanceEntry(join(REPO, 'tools/runtimes/generated'), `conformance-${id}`, [
      ...new Set([...runnable.map((pkg) => pkg.name), ...refusals.map(([, plan]) => plan.package)]),
    ])
    const input = Object.fromEntries([
      ...runnable.map((pkg) => [pkg.name, (plans[pkg.name] as { plan: unknown }).plan]),
      ...refusals,
    ])
    const { runtime, results } = await runInRuntime(target, entry, input, { timeoutMs: 150_000 })
    expect(runtime.name).toBe(id.startsWith('node') ? 'node' : id)
    const problems: string[] = []
    for (const pkg of runnable) {
      const result = results[pkg.name]
      const { plan } = plans[pkg.name] as { plan: Parameters<typeof judge>[1] }
      if (!result?.ok) problems.push(`${pkg.name}: ${result?.error ?? 'no result'}`)
      else for (const p of await judge(pkg, plan, result.seen, loaded)) problems.push(`${pkg.name}: ${p}`)
    }
    for (const [key, plan] of refusals) {
      const result = results[key]
      if (!result?.ok) problems.push(`${key}: ${result?.error ?? 'no result'}`)
      else for (const p of judgeRefusals(plan, result.seen)) problems.push(`${key}: ${p}`)
    }
    expect(problems).toEqual([])
  })
}

type RefusalPlan = NonNullable<ReturnType<typeof refusalPlanFor>>

/**
 * The refusal plans of runtime `id`, keyed for the entry: the unclaimed algorithms of the packages that
 * run there, and every package named in `refusedBy` (which must not claim the runtime).
 */
function refusalsIn(
  id: RuntimeId,
  loaded: readonly LoadedPackage[],
  runnable: readonly LoadedPackage[],
  refusedBy: readonly string[],
): [string, RefusalPlan][] {
  const named = refusedBy.map((name) => {
    const pkg = loaded.find((p) => p.name === name)
    if (!pkg) throw new Error(`refusedBy: ${name} is not a loaded strategy package`)
    if (pkg.runtimes.includes(id)) throw new Error(`refusedBy: ${name} claims ${id}`)
    return pkg
  })
  return [...runnable, ...named].flatMap((pkg) => {
    const plan = refusalPlanFor(pkg, id)
    return plan ? [[`${pkg.name} (refused in ${id})`, plan] as [string, RefusalPlan]] : []
  })
}
