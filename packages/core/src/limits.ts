import type { AlgorithmProfile, Params, WorkEstimate } from './algorithms/profile.js'
import { InvalidOptionError, ParameterLimitError } from './errors.js'
import type { OptionSpecs } from './options.js'

/**
 * What a stored hash may cost before `verify` refuses it. A stored hash is attacker-controlled data
 * when a database row is tampered with: `$scrypt$ln=30,...` asks for 128 GiB and `i=10000000000`
 * holds a core for hours, and even parameters each within its cap can combine into a minute and a GiB
 * (scrypt ln=20 with p=16). So a verify checks each parameter against its cap and the estimated work
 * against the budget, before any work.
 */
export interface ResolvedLimits {
  readonly caps: Params
  readonly budget: WorkEstimate
}

/** The `limits` option: any cap by parameter name, and the budget as `units` and `memoryBytes`. */
export type LimitOverrides = Partial<Record<string, number>>

/** The `limits` option's keys for `profile`, for the strict options check. */
export function limitSpecs(profile: AlgorithmProfile): OptionSpecs {
  const specs: Record<string, OptionSpecs[string]> = {}
  for (const key of Object.keys(profile.caps)) specs[key] = { type: 'integer', min: 1 }
  specs.units = { type: 'number', min: 1 }
  specs.memoryBytes = { type: 'number', min: 1 }
  return specs
}

/**
 * The limits for a hasher configured with `params` (writing `hashBytes` per hash). Defaults: the
 * profile's caps and budget, each raised to what the configured parameters themselves need — a
 * hasher never refuses the hashes it writes, and a stored hash may cost at most the larger of the
 * absolute budget and one hash at the configured setting. Explicit `limits` below the configured
 * setting are a configuration mistake.
 */
export function resolveLimits(
  profile: AlgorithmProfile,
  params: Params,
  hashBytes: number,
  overrides: LimitOverrides = {},
): ResolvedLimits {
  const own = profile.work(params, hashBytes)
  const caps: Record<string, number> = {}
  for (const [key, cap] of Object.entries(profile.caps)) {
    caps[key] = overrides[key] ?? Math.max(cap, params[key] ?? 0)
  }
  const budget = {
    units: overrides.units ?? Math.max(profile.budget.units, own.units),
    memoryBytes: overrides.memoryBytes ?? Math.max(profile.budget.memoryBytes, own.memoryBytes),
  }
  try {
    checkStoredWork(profile, params, hashBytes, { caps, budget })
  } catch (error) {
    throw new InvalidOptionError(
      `the configured ${profile.id} parameters exceed the given limits: ${(error as Error).message}`,
      { cause: error },
    )
  }
  return Object.freeze({ caps: Object.freeze(caps), budget: Object.freeze(budget) })
}

/** ParameterLimitError when a stored hash's parameters exceed a cap or its estimated work the budget. */
export function checkStoredWork(
  profile: AlgorithmProfile,
  params: Params,
  hashBytes: number,
  limits: ResolvedLimits,
): void {
  for (const [key, cap] of Object.entries(limits.caps)) {
    const value = params[key] as number
    if (value > cap) {
      throw new ParameterLimitError(
        `${profile.id} ${key}=${value} exceeds the cap of ${cap} (raise limits.${key} if this is intended)`,
      )
    }
  }
  const work = profile.work(params, hashBytes)
  const { units, memoryBytes } = limits.budget
  if (work.units > units || work.memoryBytes > memoryBytes) {
    throw new ParameterLimitError(
      `${profile.id} ${describeParams(params)} would cost ${work.units} ${profile.unit} and ${mebibytes(work.memoryBytes)}, over the budget of ${units} and ${mebibytes(memoryBytes)} (raise limits.units / limits.memoryBytes if this is intended)`,
    )
  }
}

const describeParams = (params: Params) =>
  Object.entries(params)
    .map(([key, value]) => `${key}=${value}`)
    .join(',')

const mebibytes = (bytes: number) => `${(bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 3 : 0)} MiB`
