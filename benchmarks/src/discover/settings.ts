import type { PasswordHasher } from '@authlab/core'
import type { HashCandidate } from '../types.js'

/**
 * Cost-equalised settings: every implementation of an algorithm runs the same parameters, so the
 * ratio measures the implementation, not its defaults. Option keys are the `info.params` keys
 * (core's convention). Values: OWASP Password Storage Cheat Sheet (argon2id m=19 MiB t=2 p=1;
 * scrypt N=2^17 r=8 p=1; bcrypt cost ≥ 10; PBKDF2-HMAC-SHA256 600,000 iterations).
 */
export interface CostSetting {
  readonly label: string
  readonly family: string
  readonly options: Readonly<Record<string, number>>
  /** Run in quick mode too (one per family); the rest need `--full`. */
  readonly quick: boolean
}

export const COST_SETTINGS: readonly CostSetting[] = [
  { label: 'bcrypt cost 10', family: 'bcrypt', options: { cost: 10 }, quick: true },
  { label: 'bcrypt cost 12', family: 'bcrypt', options: { cost: 12 }, quick: false },
  { label: 'scrypt N=2^15 r=8 p=1', family: 'scrypt', options: { ln: 15, r: 8, p: 1 }, quick: true },
  { label: 'scrypt N=2^16 r=8 p=1', family: 'scrypt', options: { ln: 16, r: 8, p: 1 }, quick: false },
  { label: 'scrypt N=2^17 r=8 p=1', family: 'scrypt', options: { ln: 17, r: 8, p: 1 }, quick: false },
  {
    label: 'argon2id OWASP m=19456 t=2 p=1',
    family: 'argon2id',
    options: { m: 19456, t: 2, p: 1 },
    quick: true,
  },
  { label: 'PBKDF2-SHA256 600k', family: 'pbkdf2-sha256', options: { iterations: 600_000 }, quick: true },
]

function runs(hasher: PasswordHasher, setting: CostSetting): boolean {
  const { info } = hasher
  return (
    info.algorithm === setting.family &&
    Object.entries(setting.options).every(([key, value]) => info.params[key] === value)
  )
}

/**
 * The candidate configured with `setting`, or undefined when it does not implement that algorithm.
 * A multi-algorithm package (hash-wasm) is asked for the family through an `algorithm` option.
 */
export function instantiate(candidate: HashCandidate, setting: CostSetting): PasswordHasher | undefined {
  for (const options of [setting.options, { algorithm: setting.family, ...setting.options }]) {
    try {
      const hasher = candidate.create(options)
      if (runs(hasher, setting)) return hasher
    } catch {
      // Rejected options mean "not this algorithm"; the next form is tried.
    }
  }
  return undefined
}

/** The password every hashing suite uses: ASCII, under bcrypt's 72 bytes, so every policy admits it. */
export const BENCH_PASSWORD = 'correct horse battery staple'

export function describeParams(hasher: PasswordHasher): string {
  const params = Object.entries(hasher.info.params).map(([k, v]) => `${k}=${v}`)
  return `${hasher.info.algorithm} ${params.join(' ')}`
}
