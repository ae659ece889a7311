#!/usr/bin/env node
// What the costliest stored hash each hash package's default hasher still verifies costs: the worst
// in-budget case and every one step beyond it (which must be refused before any work), one verify per
// fresh process, one after another. The cases come from the algorithm profiles' caps, budget and work
// estimate (core's worstInBudget), and the packages from the workspace's `authlab.kind` declarations,
// so a new hasher or a changed budget needs no edit here.
//
//   npx turbo run build && node scripts/worst-verify.mjs [--out <file>] [@authlab/hash-scrypt ...]
//
// Writes scripts/worst-verify.json (or --out) with the machine, commit and load average at start and end.
// hash-worker's default hasher is hash-wasm's argon2id on worker threads: it gets a row of its own (the
// pool's task timeout and thread recycling apply); the other strategies it can wrap are measured
// through the pool by packages/hash-worker/bench/hostile-verify.mjs.
import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { worstForDefaultLimits } from '@authlab/core'
import { discoverPackages, KINDS, loadPackages, nodeEngineProblem } from '@authlab/workspace'
import { loadAverage, machine, verifyInFreshProcess } from './fresh-verify.mjs'

const ROOT = resolve(import.meta.dirname, '..')

/**
 * Every hash package's default hasher, a genuine hash it wrote, and its worst case and steps beyond.
 * @param {readonly string[]} [only] package names; default every hash package
 */
export async function worstCases(only = []) {
  // A package for a newer Node cannot hash on this one; it is measured where it runs.
  const packages = discoverPackages(ROOT).filter(
    (pkg) => pkg.kind === 'hash' && !nodeEngineProblem(pkg) && (only.length === 0 || only.includes(pkg.name)),
  )
  const cases = []
  for (const outcome of await loadPackages(packages)) {
    if (!outcome.ok) throw new Error(`${outcome.name}: ${outcome.reason}`)
    const { pkg } = outcome
    const hasher = /** @type {import('@authlab/core').PasswordHasher & { close?(): Promise<void> }} */ (
      pkg.exports[/** @type {string} */ (KINDS.hash.ready)]
    )
    const genuine = await hasher.hash('genuine')
    await hasher.close?.()
    cases.push({ pkg, hasher, genuine, ...worstForDefaultLimits(hasher.info, genuine) })
  }
  return cases
}

async function main() {
  const { values, positionals } = parseArgs({
    options: { out: { type: 'string', default: resolve(import.meta.dirname, 'worst-verify.json') } },
    allowPositionals: true,
  })
  const recordedMachine = machine()
  const rows = []
  for (const { pkg, hasher, profile, limits, worst, beyond } of await worstCases(positionals)) {
    const ladder = [
      { kind: 'worst in budget', c: worst },
      ...beyond.map((c) => ({ kind: 'one step beyond', c })),
    ]
    for (const { kind, c } of ladder) {
      const cost = await verifyInFreshProcess({ module: pkg.name, stored: c.encoded })
      const row = {
        package: pkg.name,
        hasher: hasher.info.displayName,
        runsOn: hasher.info.runsOn,
        algorithm: profile.id,
        configured: hasher.info.params,
        budget: { ...limits.budget, unit: profile.unit },
        case: kind,
        params: c.label,
        work: c.work,
        ...cost,
      }
      console.log(JSON.stringify(row))
      rows.push(row)
    }
  }
  const results = {
    ...recordedMachine,
    loadAverageAtEnd: loadAverage(),
    method:
      "each package's default hasher (its `hasher` export, default limits); the worst in-budget stored hash and each one-step rise beyond it (core's worstInBudget), written from a genuine hash so the hash bytes no longer match; one verify with a wrong password per fresh process, after one warm-up hash; peak RSS = VmHWM from /proc/self/status after the verify (getrusage maxRSS would include the parent RSS at fork); peakRssBeforeMb: the same after the warm-up, so a verify that allocates less than the warm-up hash shows the warm-up peak); RSS after = 500 ms after the verify settled",
    rows,
  }
  writeFileSync(values.out, `${JSON.stringify(results, null, 2)}\n`)
}

if (process.argv[1] === import.meta.filename) await main()
