import { listAlgorithms, type PasswordHasher } from '@authlab/core'
import type { HashCandidate } from '../model/candidates.js'

/**
 * A cost-equalised setting: every implementation of an algorithm runs the same parameters, so the
 * ratio measures the implementation, not its defaults. Option keys are the `info.params` keys.
 */
export interface CostSetting {
  readonly label: string
  readonly family: string
  readonly options: Readonly<Record<string, number>>
  /** Run in quick mode too; the rest need `--full`. */
  readonly quick: boolean
}

/**
 * Every registered algorithm's bench settings, from its profile (OWASP Password Storage Cheat Sheet
 * parameters). Read at call time: a package outside core registers its algorithm when it is loaded.
 */
export function costSettings(): CostSetting[] {
  return listAlgorithms().flatMap((profile) =>
    profile.bench.map((setting) => ({
      label: setting.label,
      family: profile.id,
      options: setting.params,
      quick: setting.quick,
    })),
  )
}

/** The candidate configured with `setting`, or undefined when it does not implement that algorithm. */
export function instantiate(candidate: HashCandidate, setting: CostSetting): PasswordHasher | undefined {
  const options = candidate.optionsFor(setting.family, setting.options)
  return options === undefined ? undefined : candidate.create(options)
}

/** The password every hashing suite uses: ASCII, under bcrypt's 72 bytes, so every policy admits it. */
export const BENCH_PASSWORD = 'correct horse battery staple'

export function describeParams(hasher: PasswordHasher): string {
  const params = Object.entries(hasher.info.params).map(([k, v]) => `${k}=${v}`)
  return `${hasher.info.algorithm} ${params.join(' ')}`
}
