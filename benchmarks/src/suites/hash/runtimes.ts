import { getAlgorithm } from '@authlab/core'
import { hashAlgorithmsIn, type LoadedPackage } from '@authlab/workspace'
import { nativeHashers } from '../../discover/baselines.js'
import { EDGE_SCRYPT } from '../../discover/settings.js'
import type { PortableSuite } from '../../harness/suite.js'
import { settingKey } from '../../model/keys.js'
import {
  absentNote,
  type BuiltIn,
  implementations,
  PASSWORD,
  type RuntimeCandidate,
  type RuntimeGroup,
  withBaseline,
} from '../../runtimes/group.js'
import type { HashBudget } from './entries.js'

interface BuiltInHasher extends BuiltIn {
  readonly label: string
  readonly algorithm: string
  /** The expression's options at a bench setting, or undefined where the API cannot express it. */
  readonly options: (params: Readonly<Record<string, number>>) => object | undefined
}

const bunPassword = (algorithm: string, options: BuiltInHasher['options']): BuiltInHasher => ({
  runtimes: ['bun'],
  absent: "Bun's own API",
  id: `ref:Bun.password ${algorithm}`,
  label: `Bun.password ${algorithm} [ref]`,
  algorithm,
  options,
})

/**
 * Bun's own password API (Bun.password.hash, in Bun's native code): argon2id with memoryCost (KiB) and
 * timeCost and one lane, bcrypt with cost. Its argon2id has no parallelism option, so it runs p=1
 * settings only.
 */
const BUILT_IN_HASHERS: readonly BuiltInHasher[] = [
  bunPassword('argon2id', ({ m, t, p }) =>
    p === 1 ? { algorithm: 'argon2id', memoryCost: m, timeCost: t } : undefined,
  ),
  bunPassword('bcrypt', ({ cost }) => ({ algorithm: 'bcrypt', cost })),
]

/** The runtime's own hasher of an algorithm at a setting, or the note saying why it is not there. */
function builtIns(
  algorithm: string,
  runtime: string,
  setting: { label: string; params: Readonly<Record<string, number>> },
) {
  const candidates: RuntimeCandidate[] = []
  const notes: string[] = []
  for (const builtIn of BUILT_IN_HASHERS.filter((b) => b.algorithm === algorithm)) {
    const options = builtIn.options(setting.params)
    if (!builtIn.runtimes.includes(runtime)) notes.push(absentNote(builtIn, runtime))
    else if (!options) notes.push(`${builtIn.id} left out: it cannot express ${setting.label}`)
    else
      candidates.push({
        id: builtIn.id,
        label: builtIn.label,
        call: `Bun.password.hash(${PASSWORD}, ${JSON.stringify(options)})`,
      })
  }
  return { candidates, notes }
}

interface RuntimeSetting {
  readonly label: string
  readonly params: Readonly<Record<string, number>>
}

/**
 * Settings measured in every runtime besides each algorithm's first bench setting: where that one is
 * below OWASP's floor, a row of the sheet the edge can run (discover/settings.ts, EDGE_SCRYPT), so the
 * advice for a platform has a setting at the floor measured there.
 */
export const FLOOR_SETTINGS: Readonly<Record<string, readonly RuntimeSetting[]>> = { scrypt: [EDGE_SCRYPT] }

/** The settings an algorithm is measured at in another runtime: its first bench setting, then FLOOR_SETTINGS'. */
export function runtimeSettings(algorithm: string): RuntimeSetting[] {
  const first = getAlgorithm(algorithm).bench[0]
  return [...(first ? [first] : []), ...(FLOOR_SETTINGS[algorithm] ?? [])]
}

/** One group per algorithm the claiming packages implement there and per setting of runtimeSettings(). */
function groups(runtime: string, claiming: readonly LoadedPackage[]): RuntimeGroup[] {
  const hashers = claiming.filter((p) => p.kind === 'hash')
  const algorithms = [...new Set(hashers.flatMap((p) => hashAlgorithmsIn(p, runtime)))]
  return algorithms
    .sort()
    .flatMap((algorithm) => runtimeSettings(algorithm).flatMap((s) => group(runtime, hashers, algorithm, s)))
}

/** The implementations of `algorithm` claimed in `runtime` and the runtime's own, at one setting. */
function group(
  runtime: string,
  claiming: readonly LoadedPackage[],
  algorithm: string,
  setting: RuntimeSetting,
): RuntimeGroup[] {
  const list = implementations(claiming, algorithm, setting.params, runtime).map(
    ({ pkg, options, displayName }): RuntimeCandidate => ({
      id: pkg.name,
      label: displayName,
      module: pkg.name,
      setup: `return m.createHasher(${JSON.stringify(options)})`,
      call: `s.hash(${PASSWORD})`,
    }),
  )
  const own = builtIns(algorithm, runtime, setting)
  return withBaseline(
    {
      group: setting.label,
      key: { setting: settingKey(algorithm, setting.params), operation: 'hash' },
      unit: 'hashes/s',
      notes: own.notes,
    },
    nativeHashers()[algorithm],
    [...list, ...own.candidates],
  )
}

export const portable: PortableSuite<HashBudget> = {
  kinds: ['hash'],
  groups,
  minBatchMs: (budget) => budget.roundMs,
}
