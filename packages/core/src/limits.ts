import { InvalidOptionError, ParameterLimitError } from './errors.js'

/**
 * Upper bounds on the cost parameters a hasher accepts, keyed like `info.params` (plus derived
 * measures such as scrypt's `memoryBytes`). A stored hash is attacker-controlled data when a database
 * row is tampered with: without caps, `$scrypt$ln=30,...` asks for 128 GiB and `i=10000000000` hangs a
 * core for hours. Every hasher checks these before doing any work.
 */
export type ParameterCaps = Readonly<Record<string, number>>

/**
 * bcrypt's cap lives with its modular-crypt parser (DEFAULT_BCRYPT_COST_LIMIT in bcrypt-format.ts).
 * Defaults sit well above the OWASP Password Storage Cheat Sheet settings (so a deployment can raise
 * its cost for years without touching caps) and well below what hurts a server.
 */
export const DEFAULT_PARAMETER_CAPS: Readonly<Record<string, ParameterCaps>> = Object.freeze({
  // ln 20 (N = 2^20) is 8× OWASP's 2^17; 1 GiB bounds the 128·N·r scratch array (RFC 7914 §2).
  scrypt: Object.freeze({ ln: 20, r: 32, p: 16, memoryBytes: 2 ** 30 }),
  // 1 GiB (in KiB) is 55× OWASP's 19 MiB; t and p bounded to keep one verify under seconds.
  argon2id: Object.freeze({ m: 2 ** 20, t: 64, p: 16 }),
  // 10 million is ~17× OWASP's 600,000 for HMAC-SHA256.
  'pbkdf2-sha256': Object.freeze({ iterations: 10_000_000 }),
})

/** The caps for `algorithm` with the caller's overrides applied; overrides must be positive numbers. */
export function resolveCaps(algorithm: string, overrides?: Partial<Record<string, number>>): ParameterCaps {
  const base = DEFAULT_PARAMETER_CAPS[algorithm]
  if (!base) throw new InvalidOptionError(`no parameter caps are defined for algorithm "${algorithm}"`)
  for (const [name, value] of Object.entries(overrides ?? {})) {
    if (!Object.hasOwn(base, name)) throw new InvalidOptionError(`unknown ${algorithm} cap "${name}"`)
    if (typeof value !== 'number' || !(value > 0))
      throw new InvalidOptionError(`cap "${name}" must be a positive number`)
  }
  return Object.freeze({ ...base, ...overrides } as Record<string, number>)
}

/** Throws ParameterLimitError for the first value above its cap; values without a cap pass. */
export function checkCaps(
  algorithm: string,
  values: Readonly<Record<string, number>>,
  caps: ParameterCaps,
): void {
  for (const [name, value] of Object.entries(values)) {
    const cap = caps[name]
    if (cap !== undefined && value > cap) {
      throw new ParameterLimitError(
        `${algorithm} ${name}=${value} exceeds the cap of ${cap} (raise limits.${name} if this is intended)`,
      )
    }
  }
}
