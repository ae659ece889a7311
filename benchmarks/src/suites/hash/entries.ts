import { findAlgorithm, type PasswordHasher } from '@authlab/core'
import { nativeHashers } from '../../discover/baselines.js'
import { costSettings, describeParams, instantiate } from '../../discover/settings.js'
import { CONTROL_SUFFIX, message } from '../../harness/rows.js'
import type { RoundsBudget } from '../../harness/suite.js'
import type { HashCandidate } from '../../model/candidates.js'
import { settingKey } from '../../model/keys.js'

/** The hash suite: hash, then verify, per configuration per round. */
export interface HashBudget extends RoundsBudget {
  /** CPU time each operation is repeated for within a round (at least one call). */
  readonly roundMs: number
  /** A configuration whose one warm call takes longer than this is not run (noted, not guessed). */
  readonly callCapMs: number
  /** Cost-equalised settings run: one per algorithm family, or all of them. */
  readonly allSettings: boolean
  /** Time verify at the cost settings too (always at the defaults). */
  readonly settingVerifies: boolean
}

export interface Entry {
  readonly group: string
  /** The setting as data (src/model/keys.ts): `defaults` or the algorithm at its parameters. */
  readonly setting: string
  readonly candidate: HashCandidate
  readonly hasher: PasswordHasher
  /** The A/A control: the same configuration as `candidate`'s native entry, measured as a separate one. */
  readonly control?: boolean
}

/** One measurement per distinct (package, parameters): a setting equal to a package's defaults reuses it. */
export const entryKey = (e: Entry) =>
  `${e.candidate.id} ${describeParams(e.hasher)}${e.control ? CONTROL_SUFFIX : ''}`

/** A verify's work at these parameters in its algorithm's own units (core's profile), if known. */
export function workUnits(hasher: PasswordHasher): number | undefined {
  const params = Object.fromEntries(
    Object.entries(hasher.info.params).filter((e): e is [string, number] => typeof e[1] === 'number'),
  )
  const units = findAlgorithm(hasher.info.algorithm)?.work(params, 32).units
  return units !== undefined && units > 0 ? units : undefined
}

/** Defaults first, then each cost-equalised setting with every implementation of its algorithm. */
function entriesOf(hashers: readonly HashCandidate[], budget: HashBudget, notes: string[]): Entry[] {
  const entries: Entry[] = []
  // A variant at a cost setting is measured once, in that setting's table, with its base candidate.
  for (const candidate of hashers.filter((c) => c.variantOf === undefined)) {
    try {
      entries.push({ group: 'defaults', setting: 'defaults', candidate, hasher: candidate.create() })
    } catch (error) {
      notes.push(`${candidate.id}: its defaults cannot be built (${message(error)})`)
    }
  }
  for (const setting of costSettings().filter((s) => budget.allSettings || s.quick)) {
    for (const candidate of hashers) {
      const hasher = instantiate(candidate, setting)
      const key = settingKey(setting.family, setting.options)
      if (hasher) entries.push({ group: setting.label, setting: key, candidate, hasher })
    }
  }
  return entries
}

/** The entries of a run and how they relate: natives, the A/A control, shared measurements. */
export function planEntries(hashers: readonly HashCandidate[], budget: HashBudget, notes: string[]) {
  const entries = entriesOf(hashers, budget, notes)
  const sameAsDefaults = (entry: Entry) =>
    entries.some((e) => e.group === 'defaults' && entryKey(e) === entryKey(entry))
  const nativeOf = (e: Entry) =>
    entries.find(
      (n) => n.group === e.group && !n.control && n.candidate.id === nativeHashers()[e.hasher.info.algorithm],
    )
  // The A/A control: native bcrypt's defaults again, as its own entry. Not a memory-hard hasher: a call
  // touching MiBs varies from round to round with page faults and memory bandwidth shared with other
  // processes, a floor that would hide every other difference; bcrypt's state is 4 KiB.
  const natives = entries.filter((e) => e.group === 'defaults' && nativeOf(e) === e)
  const controlBase = natives.find((e) => e.hasher.info.algorithm === 'bcrypt') ?? natives[0]
  if (controlBase) entries.push({ ...controlBase, control: true })
  return {
    entries,
    distinct: [...new Map(entries.map((e) => [entryKey(e), e])).values()],
    sameAsDefaults,
    nativeOf,
    // Verify repeats the hash's derivation (plus a constant-time compare), so quick mode times it at the
    // defaults only; a cost setting's verify is a --full figure.
    verified: (e: Entry) => budget.settingVerifies || sameAsDefaults(e),
  }
}
