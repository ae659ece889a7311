/**
 * What a portable suite measures inside another runtime (`--runtime`): groups of candidates, each a
 * module and a call the generated entry times in interleaved rounds, with the baseline their ratios
 * divide by. Each portable suite says its own groups (its folder's runtimes.ts); these are the parts
 * they share.
 */
import {
  factoryOf,
  hashAlgorithmsIn,
  hashOptions,
  type LoadedPackage,
  nodeEngineProblem,
} from '@authlab/workspace'
import { BENCH_PASSWORD } from '../discover/settings.js'
import type { RuntimeCandidate, RuntimeGroup } from '../harness/suite.js'

/**
 * What a runtime has built in and no package wraps, measured as a reference in that runtime's column
 * only, with why it is absent from the other runtimes (for their notes). A runtime not listed is
 * taken not to have it: a new runtime id gets the note until someone checks and lists it.
 */
export interface BuiltIn {
  readonly runtimes: readonly string[]
  readonly absent: string
  readonly id: string
}

export const absentNote = (builtIn: BuiltIn, runtime: string) =>
  `${builtIn.id} not in ${runtime}: ${builtIn.absent}`

/**
 * The password every derivation hashes, as code. Every derivation gets a salt of its own (a random tag
 * per candidate, then a counter; the A/A control is the same code and must not replay its twin's
 * inputs): Firefox's Web Crypto returns a repeated PBKDF2 derivation with identical inputs about 14×
 * faster than a fresh one, which would be timed as speed.
 */
export const PASSWORD = JSON.stringify(BENCH_PASSWORD)

/** The same candidate again under another id: identical code, so its ratio shows the harness's noise. */
const control = (c: RuntimeCandidate): RuntimeCandidate => ({
  ...c,
  id: `${c.id} (A/A)`,
  label: `${c.label} [A/A control]`,
})

/**
 * Hash packages claiming `algorithm` in `runtime` (`workerdAlgorithms` narrows workerd), each with its
 * options at `params`.
 */
export function implementations(
  claiming: readonly LoadedPackage[],
  algorithm: string,
  params: Readonly<Record<string, number>>,
  runtime: string,
) {
  return claiming.flatMap((pkg) => {
    if (pkg.kind !== 'hash' || !hashAlgorithmsIn(pkg, runtime).includes(algorithm)) return []
    const options = hashOptions(pkg, algorithm, params)
    if (!options) return []
    // Its label and capabilities are read from an instance made here, on the bench's Node.
    if (nodeEngineProblem(pkg)) return []
    const hasher = factoryOf(pkg)(options) as { info: { displayName: string }; derive?: unknown }
    return [
      { pkg, options, displayName: hasher.info.displayName, derives: typeof hasher.derive === 'function' },
    ]
  })
}

/** A group with its baseline first (the native implementation when the runtime has it) and an A/A control. */
export function withBaseline(
  group: Omit<RuntimeGroup, 'baseline' | 'candidates'>,
  native: string | undefined,
  list: readonly RuntimeCandidate[],
): RuntimeGroup[] {
  if (list.length === 0) return []
  const sorted = [...list].sort((a, b) => Number(b.id === native) - Number(a.id === native))
  const base = sorted[0] as RuntimeCandidate
  return [{ ...group, baseline: base.id, candidates: [...sorted, control(base)] }]
}

export type { RuntimeCandidate, RuntimeGroup }
export { control as runtimeControl }
