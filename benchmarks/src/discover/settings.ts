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

/**
 * The scrypt setting the edge is measured at, beside each algorithm's first bench setting (whose scrypt,
 * better-auth's N=2^14 r=16 p=1, is below OWASP's floor: N·r·p = 262,144): the Password Storage Cheat
 * Sheet's N=2^14 r=8 p=5 row, the floor's own work (655,360) in 16 MiB a lane (hashcat's scrypt
 * reference size), inside Workers' 128 MB and workerd's scrypt cost cap of N·r·p ≤ 2^20
 * (cloudflare/workerd src/workerd/io/limit-enforcer.h, DEFAULT_MAX_SCRYPT_COST). A test holds it at the floor.
 */
export const EDGE_SCRYPT = { label: 'scrypt OWASP N=2^14 r=8 p=5', params: { ln: 14, r: 8, p: 5 } } as const

/**
 * The stretch suite's group for a Worker's way out (src/suites/stretch/edge-remote.ts): in workerd, the
 * floor's scrypt done by the Worker (`local`) against a call to the remote helper (`remote`).
 */
export const EDGE_REMOTE = {
  runtime: 'workerd',
  local: '@authlab/hash-scrypt',
  remote: '@authlab/stretch-remote',
} as const

/** The password every hashing suite uses: ASCII, under bcrypt's 72 bytes, so every policy admits it. */
export const BENCH_PASSWORD = 'correct horse battery staple'

export function describeParams(hasher: PasswordHasher): string {
  const params = Object.entries(hasher.info.params).map(([k, v]) => `${k}=${v}`)
  return `${hasher.info.algorithm} ${params.join(' ')}`
}
