import type { OptionAliases, OptionSpec } from '../options.js'
import type { PasswordPolicy } from '../password.js'

/** Cost parameters, keyed as in `info.params` and the hashers' options: `{ ln, r, p }`, `{ cost }`. */
export type Params = Readonly<Record<string, number>>

/** One cost parameter: an integer option, its smallest valid value and (for PHC strings) its field name. */
export interface ParamSpec extends OptionSpec {
  readonly type: 'integer'
  readonly min: number
  /** The name in the PHC string (default: the key). */
  readonly phcName?: string
  readonly description: string
}

/**
 * What one verify with given parameters costs: `units` of the algorithm's own work (comparable only
 * within one algorithm) and the bytes of memory it allocates.
 */
export interface WorkEstimate {
  readonly units: number
  readonly memoryBytes: number
}

/** One cost-equalised bench setting: every implementation of the algorithm runs exactly these parameters. */
export interface BenchSetting {
  readonly label: string
  readonly params: Params
  /** Run in the bench's quick mode too (the first is the one other runtimes run); the rest only with `--full`. */
  readonly quick: boolean
}

/** A genuine hash rewritten with absurd parameters: `verify` must refuse it with ParameterLimitError, before work. */
export interface AbsurdCase {
  readonly label: string
  readonly edit: (genuine: string) => string
}

/**
 * Everything authlab knows about one password-hashing algorithm, in one place: the strategy packages
 * (native, WASM, pure JS, worker) pass only the function they wrap, the conformance suite reads its
 * cases and vectors from here and the bench its settings. An algorithm outside core defines one of
 * these and passes it to the definer (or `registerAlgorithm`), with its own caps and budget.
 */
export interface AlgorithmProfile {
  /** `info.algorithm` and the PHC identifier, e.g. `scrypt`, `pbkdf2-sha256`. */
  readonly id: string
  /** The cost parameters in PHC field order. */
  readonly params: Readonly<Record<string, ParamSpec>>
  /** Other libraries' option names for the same parameters, so `{ saltRounds: 12 }` says "use cost". */
  readonly aliases: OptionAliases
  /** The OWASP Password Storage Cheat Sheet's setting: every implementation's default. */
  readonly defaults: Params
  /** Per-parameter caps on a stored hash (a configured value above one raises it for that hasher). */
  readonly caps: Params
  /**
   * The most work one verify may cost by default, sized to about a second and 256 MiB on a 2-core
   * server; a hasher's budget is the larger of this and its configured parameters' own work.
   */
  readonly budget: WorkEstimate
  /** The work a verify of a stored hash with these parameters and this many hash bytes costs. */
  readonly work: (params: Params, hashBytes: number) => WorkEstimate
  /** What `units` counts, for error messages. */
  readonly unit: string
  readonly bench: readonly BenchSetting[]
  /** The package the bench divides this algorithm's other implementations by (its native one). */
  readonly baseline?: string
  /** Over-cap and over-budget rewrites of a genuine hash, for the conformance suite. */
  readonly absurd: readonly AbsurdCase[]
  /** Names of the known-answer vector sets exported by @authlab/conformance for this algorithm. */
  readonly vectors: { readonly encoded?: string; readonly kdf?: string }
  /** Cheap parameters for the conformance suite's functional checks, and a stronger setting for needsRehash. */
  readonly testParams: { readonly cheap: Params; readonly stronger: Params }
  /** The password policy the algorithm itself imposes (bcrypt: 72 bytes, no NUL); default DEFAULT_PASSWORD_POLICY. */
  readonly policy?: PasswordPolicy
  /**
   * What the algorithm itself requires of a raw `derive(password, salt, length)`, checked before any
   * work (a hasher's own salts are always at least 8 bytes); default: any salt, any length from 1.
   */
  readonly deriveLimits?: { readonly minSaltBytes: number; readonly minLength: number }
}
