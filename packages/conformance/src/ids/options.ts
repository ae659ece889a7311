import type { IdGenerator } from '@authlab/core'

/** Characters that are safe unescaped in a cookie value, a URL path segment and a file name. */
export const SAFE_ID_CHARACTERS = /^[A-Za-z0-9_-]+$/

/**
 * The duplicate check is sized to catch a generator whose IDs take at most 2^32 equally likely values
 * (a 32-bit seed or state behind a 128-bit-looking encoding: Math.random seeded per ID, a 32-bit
 * counter or timestamp mixed in) at the suite's rejection level.
 */
export const UNIQUE_DETECTS_BITS = 32

/** Rejection level for every statistical check: a correct generator fails once in a million runs. */
export const SIGNIFICANCE = 1e-6

/**
 * IDs the duplicate check draws: n = ⌈√(2^(D+1) · ln(1/SIGNIFICANCE))⌉ for D = UNIQUE_DETECTS_BITS,
 * which is 344,492 for D = 32.
 * Birthday bound: n IDs drawn from at most 2^D equally likely values are all distinct with probability
 * ≤ exp(−n(n−1)/2^(D+1)) (https://en.wikipedia.org/wiki/Birthday_problem#Calculating_the_probability),
 * so at this n a 2^D-valued generator has a duplicate with probability ≥ 1 − SIGNIFICANCE, and any
 * period shorter than n repeats an ID with certainty. More IDs decide nothing about a correct generator:
 * with b ≥ 128 declared bits a false alarm has probability ≤ n²/2^(b+1) < 1e-27 (see uniqueSize).
 * The detectable space grows only with n²: a million IDs would reach 2^35.
 */
export const DEFAULT_UNIQUE = Math.ceil(
  Math.sqrt(2 ** (UNIQUE_DETECTS_BITS + 1) * Math.log(1 / SIGNIFICANCE)),
)

/**
 * The duplicate check's size for a generator declaring `entropyBits`: the default, capped so that a
 * correct generator's false-alarm probability n²/2^(b+1) stays ≤ SIGNIFICANCE (which matters only
 * when a caller lowers minEntropyBits below ~75 bits), and raised to span ≥ 10 refills of a
 * declared pool, where a refill bug (a pool reused, a tail kept) would repeat IDs.
 */
export function uniqueSize(
  info: { entropyBits: number; poolBytes: number },
  requested: number = DEFAULT_UNIQUE,
): number {
  const collisionCap = Math.floor(Math.sqrt(2 ** (info.entropyBits + 1) * SIGNIFICANCE))
  const bytesPerId = Math.max(1, Math.floor(info.entropyBits / 8))
  const refills = Math.ceil((10 * info.poolBytes) / bytesPerId)
  return Math.max(Math.min(requested, collisionCap), refills)
}

/** How many IDs each check draws. The defaults are the sizes that make each check decisive. */
export interface IdCheckSizes {
  /** IDs checked for duplicates (see DEFAULT_UNIQUE); raised automatically to cover ≥ 10 pool refills. */
  unique: number
  /** IDs for the byte-reuse, uniformity and independence checks. */
  sample: number
  /** IDs generated for the memory check, of which every `keepEvery`-th survives. */
  memory: number
  keepEvery: number
  /** IDs generated inside a worker thread. */
  worker: number
  /** Concurrent async tasks × IDs each for the interleaving check. */
  asyncTasks: number
  idsPerTask: number
}

export const DEFAULT_SIZES: IdCheckSizes = {
  unique: DEFAULT_UNIQUE,
  sample: 100_000,
  // 200 survivors: a pool served as 24 KiB-parent slices retains 6.4 MB against a 39 KB limit (165×), a
  // correct generator 12 KB; 1,000,000 IDs decided nothing more and took five times as long.
  memory: 200_000,
  keepEvery: 1_000,
  worker: 20_000,
  asyncTasks: 200,
  idsPerTask: 500,
}

export interface IdCheckOptions {
  /** Returns a fresh generator. Each check makes its own, so state never leaks between checks. */
  factory: () => IdGenerator
  /** Minimum declared entropy in bits (default 128: ASVS 5.0 V7.2.3, OWASP Session Management). */
  minEntropyBits?: number
  /**
   * The symbols expected, uniformly distributed, at each character position (default: `info.alphabet`
   * everywhere). A position with one symbol is fixed (a UUID's hyphens and version digit).
   */
  symbolsAt?: (position: number) => string
  /**
   * Maps an ID back to the random bytes it carries. Default: each character's index in the alphabet,
   * bit-packed — right for any power-of-two alphabet (base64url, hex, nanoid's).
   */
  decode?: (id: string) => Uint8Array
  /**
   * Module (absolute URL or path) that a worker thread imports to build the generator with
   * `workerExport()` (default `createIdGenerator`). Required for the worker check.
   */
  workerModule?: string | URL
  workerExport?: string
  sizes?: Partial<IdCheckSizes>
}

export interface ResolvedIdCheckOptions extends Required<Omit<IdCheckOptions, 'workerModule' | 'sizes'>> {
  workerModule: string | undefined
  sizes: IdCheckSizes
}

export function resolveOptions(options: IdCheckOptions): ResolvedIdCheckOptions {
  const probe = options.factory()
  const alphabet = probe.info.alphabet
  return {
    factory: options.factory,
    minEntropyBits: options.minEntropyBits ?? 128,
    symbolsAt: options.symbolsAt ?? (() => alphabet),
    decode: options.decode ?? bitPackDecoder(alphabet),
    workerModule: options.workerModule === undefined ? undefined : toModuleUrl(options.workerModule),
    workerExport: options.workerExport ?? 'createIdGenerator',
    sizes: { ...DEFAULT_SIZES, ...options.sizes },
  }
}

function toModuleUrl(module: string | URL): string {
  if (module instanceof URL) return module.href
  return module.startsWith('/') ? new URL(`file://${module}`).href : module
}

/** Decoder for power-of-two alphabets: each character contributes log2(size) bits, MSB first. */
export function bitPackDecoder(alphabet: string): (id: string) => Uint8Array {
  const size = alphabet.length
  const bits = Math.log2(size)
  if (!Number.isInteger(bits)) {
    return () => {
      throw new Error(`alphabet of ${size} symbols is not a power of two: pass a decode() option`)
    }
  }
  const index = new Map([...alphabet].map((c, i) => [c, i]))
  return (id) => {
    const out = new Uint8Array(Math.floor((id.length * bits) / 8))
    let acc = 0
    let accBits = 0
    let o = 0
    for (const c of id) {
      const v = index.get(c)
      if (v === undefined) throw new Error(`character ${JSON.stringify(c)} is not in the declared alphabet`)
      acc = ((acc << bits) | v) & 0xffff
      accBits += bits
      if (accBits >= 8) {
        accBits -= 8
        out[o++] = (acc >> accBits) & 0xff
      }
    }
    return out
  }
}
