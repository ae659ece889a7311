import { performance } from 'node:perf_hooks'
import { InvalidOptionError, type PasswordHasher } from '@authlab/core'
import { type Measurement, measureHasher } from './measure.js'

// Apps branch on these errors' codes; re-exported so a login route needs only this package.
export * from '@authlab/core/errors'

export * from './advice.js'
export type { Measurement } from './measure.js'
export type CalibratedAlgorithm = 'argon2id' | 'bcrypt' | 'scrypt' | 'pbkdf2-sha256'
type Params = Readonly<Record<string, number>>

export interface CalibrateOptions {
  readonly algorithm: CalibratedAlgorithm
  /** Makes a hasher for candidate parameters, e.g. `(params) => createHasher(params)`. */
  readonly factory: (params: Params) => PasswordHasher
  /** The median hash latency wanted at `concurrency`, in ms (OWASP suggests well under a second). */
  readonly targetMs: number
  /** Logins hashing at the same time (default 1). Latency is measured with this many in flight. */
  readonly concurrency?: number
  /** Memory one hash may use, in bytes (default 64 MiB). Bounds argon2's m and scrypt's N. */
  readonly maxMemory?: number
  /** Timed hashes per candidate (default 12, at least 2 × concurrency). */
  readonly samples?: number
  readonly clock?: () => number
  readonly onMeasured?: (measurement: Measurement) => void
}

export interface CalibrationResult {
  readonly algorithm: CalibratedAlgorithm
  readonly targetMs: number
  readonly concurrency: number
  readonly params: Params
  readonly medianMs: number
  readonly p99Ms: number
  /** True when the median is within ±15 % of the target. */
  readonly met: boolean
  /** Why the target was not met, when it was not. */
  readonly reason?: string
  /** Every candidate measured, in order. */
  readonly tried: readonly Measurement[]
  /** Ready to paste: `createHasher({ … })`. */
  readonly snippet: string
}

const TOLERANCE = 0.15
const MiB = 1024 * 1024

/**
 * Bounds on what a run may be asked for, so no option makes it run for hours: a login hash of more than
 * 10 s is no login (OWASP Password Storage Cheat Sheet: well under a second), more concurrent logins
 * than this only queue on the cores, and more timed hashes than this add nothing to a median.
 */
export const LIMITS = { maxTargetMs: 10_000, maxConcurrency: 1024, maxSamples: 1000 } as const

/**
 * Picks parameters that make one hash take about `targetMs` on this machine at the given concurrency,
 * never weaker than the OWASP Password Storage Cheat Sheet's minimums, and says so when the target
 * cannot be met within ±15 %.
 */
export async function calibrate(options: CalibrateOptions): Promise<CalibrationResult> {
  const { algorithm, factory, targetMs } = options
  const concurrency = positiveInteger('concurrency', options.concurrency ?? 1, LIMITS.maxConcurrency)
  const maxMemory = positiveInteger('maxMemory', options.maxMemory ?? 64 * MiB)
  const samples = Math.max(
    positiveInteger('samples', options.samples ?? 12, LIMITS.maxSamples),
    2 * concurrency,
  )
  if (!(Number.isFinite(targetMs) && targetMs > 0 && targetMs <= LIMITS.maxTargetMs)) {
    throw new InvalidOptionError(
      `targetMs must be a number of milliseconds above 0 and at most ${LIMITS.maxTargetMs}, got ${String(targetMs)}`,
    )
  }
  if (typeof factory !== 'function')
    throw new InvalidOptionError('factory must be a function (params) => hasher')
  const search = SEARCHES[algorithm]
  if (!search) {
    throw new InvalidOptionError(
      `algorithm must be one of ${Object.keys(SEARCHES).join(', ')}, got ${String(algorithm)}`,
    )
  }

  const tried: Measurement[] = []
  const measure = async (params: Params): Promise<Measurement> => {
    const m = await measureHasher(factory(params), params, {
      concurrency,
      samples,
      clock: options.clock ?? (() => performance.now()),
    })
    tried.push(m)
    options.onMeasured?.(m)
    return m
  }
  await search({ targetMs, maxMemory, measure })

  const best = closest(tried, targetMs)
  const deviation = best.medianMs / targetMs - 1
  const met = Math.abs(deviation) <= TOLERANCE
  return {
    algorithm,
    targetMs,
    concurrency,
    params: best.params,
    medianMs: best.medianMs,
    p99Ms: best.p99Ms,
    met,
    ...(met ? {} : { reason: explain(algorithm, deviation, tried, targetMs) }),
    tried,
    snippet: `createHasher({ ${Object.entries(best.params)
      .map(([key, value]) => `${key}: ${value}`)
      .join(', ')} })`,
  }
}

interface SearchContext {
  readonly targetMs: number
  readonly maxMemory: number
  readonly measure: (params: Params) => Promise<Measurement>
}

/**
 * Raises one parameter that the time grows with linearly (PBKDF2 iterations, argon2 passes, scrypt
 * lanes) from `floor`: extrapolate from the last measurement, measure, and repeat while it moves.
 */
async function tuneLinear(
  ctx: SearchContext,
  paramsFor: (value: number) => Params,
  floor: number,
  step = 1,
  first?: Measurement,
  start = floor,
  ceiling = Number.POSITIVE_INFINITY,
): Promise<Measurement> {
  let value = start
  let m = first ?? (await ctx.measure(paramsFor(value)))
  for (let attempt = 0; attempt < 4; attempt++) {
    if (Math.abs(m.medianMs / ctx.targetMs - 1) <= TOLERANCE / 3) return m
    const wanted = Math.round((value * ctx.targetMs) / m.medianMs / step) * step
    const next = Math.min(ceiling, Math.max(floor, wanted))
    if (next === value) return m
    value = next
    m = await ctx.measure(paramsFor(value))
  }
  return m
}

// OWASP Password Storage Cheat Sheet: argon2id configurations of equal defence, "m=47104 (46 MiB),
// t=1" down to "m=7168 (7 MiB), t=5"; fewer passes need more memory.
const ARGON2_FLOORS: ReadonlyArray<readonly [m: number, t: number]> = [
  [47104, 1],
  [19456, 2],
  [12288, 3],
  [9216, 4],
  [7168, 5],
]

/**
 * RFC 9106 §4: fix the lanes and the memory from what the deployment allows, then raise the passes
 * until the time budget is used; if one pass is already too slow, use less memory. Lanes stay 1:
 * each login is its own threadpool task, so parallelism comes from concurrent logins, not lanes.
 */
async function searchArgon2id(ctx: SearchContext): Promise<void> {
  const memoryKiB = Math.floor(ctx.maxMemory / 1024)
  const floor = ARGON2_FLOORS.find(([m]) => m <= memoryKiB)
  if (!floor) return void (await ctx.measure({ m: 7168, t: 5, p: 1 }))
  const first = await ctx.measure({ m: memoryKiB, t: floor[1], p: 1 })
  if (first.medianMs <= ctx.targetMs * (1 + TOLERANCE)) {
    return void (await tuneLinear(ctx, (t) => ({ m: memoryKiB, t, p: 1 }), floor[1], 1, first))
  }
  // One pass over all the memory allowed is too slow: less memory, one pass, time linear in m, down
  // to OWASP's one-pass row (a large --max-memory must not leave only the extremes to choose from).
  if (floor[1] === 1 && memoryKiB > floor[0]) {
    const last = await tuneLinear(
      ctx,
      (m) => ({ m, t: 1, p: 1 }),
      floor[0],
      1024,
      first,
      memoryKiB,
      memoryKiB,
    )
    if (last.medianMs <= ctx.targetMs * (1 + TOLERANCE)) return
  }
  for (const [m, t] of ARGON2_FLOORS) {
    if (m > memoryKiB) continue
    if ((await ctx.measure({ m, t, p: 1 })).medianMs <= ctx.targetMs * (1 + TOLERANCE)) return
  }
}

/** bcrypt's only knob doubles the work per step, so the search walks the cost up from OWASP's 10. */
async function searchBcrypt(ctx: SearchContext): Promise<void> {
  for (let cost = 10; cost <= 20; cost++) {
    if ((await ctx.measure({ cost })).medianMs >= ctx.targetMs) return
  }
}

// OWASP: scrypt "N=2^17 (128 MiB), r=8, p=1" and its equals N=2^16/p=2, 2^15/p=3, 2^14/p=5, 2^13/p=10.
const SCRYPT_FLOORS: ReadonlyArray<readonly [ln: number, p: number]> = [
  [17, 1],
  [16, 2],
  [15, 3],
  [14, 5],
  [13, 10],
]

/**
 * RFC 7914 §2: memory is 128·r·N bytes and time grows with N·p. N starts as large as the memory allows
 * (a memory-hard function is strongest when it uses the memory), at the OWASP lanes floor for that N;
 * if that is already too slow, the next OWASP row of equal defence (smaller N, more lanes, less time)
 * is tried, as RFC 9106 §4 lowers argon2's memory. Then p fine-tunes the time linearly, which
 * doubling N cannot.
 */
async function searchScrypt(ctx: SearchContext): Promise<void> {
  const r = 8
  const maxLn = Math.min(20, Math.floor(Math.log2(ctx.maxMemory / (128 * r))))
  const rows = SCRYPT_FLOORS.filter(([ln]) => ln <= maxLn)
  if (rows.length === 0) return void (await ctx.measure({ ln: 13, r, p: 10 }))
  // Above OWASP's N=2^17 row, p=1 already exceeds every floor.
  const start: readonly (readonly [number, number])[] = maxLn > 17 ? [[maxLn, 1], ...rows] : rows
  for (const [ln, p] of start) {
    const first = await ctx.measure({ ln, r, p })
    if (first.medianMs <= ctx.targetMs * (1 + TOLERANCE)) {
      return void (await tuneLinear(ctx, (lanes) => ({ ln, r, p: lanes }), p, 1, first))
    }
  }
}

/** RFC 8018 §5.2: time is linear in the iteration count; OWASP's floor for SHA-256 is 600,000. */
async function searchPbkdf2(ctx: SearchContext): Promise<void> {
  await tuneLinear(ctx, (iterations) => ({ iterations }), 600_000, 1000)
}

const SEARCHES: Record<CalibratedAlgorithm, (ctx: SearchContext) => Promise<void>> = {
  argon2id: searchArgon2id,
  bcrypt: searchBcrypt,
  scrypt: searchScrypt,
  'pbkdf2-sha256': searchPbkdf2,
}

/** The measurement closest to the target on a log scale (twice as slow is as far off as half). */
function closest(tried: readonly Measurement[], targetMs: number): Measurement {
  const distance = (m: Measurement) => Math.abs(Math.log(m.medianMs / targetMs))
  return tried.reduce((best, m) => (distance(m) < distance(best) ? m : best))
}

function explain(
  algorithm: CalibratedAlgorithm,
  deviation: number,
  tried: readonly Measurement[],
  targetMs: number,
): string {
  const percent = `${deviation > 0 ? '+' : ''}${(deviation * 100).toFixed(0)} %`
  // Only what was measured: the fastest setting tried is the one that shows the minimum is too slow.
  const fastest = tried.reduce((a, m) => (m.medianMs < a.medianMs ? m : a))
  if (deviation > 0 && fastest.medianMs > targetMs) {
    const params = Object.entries(fastest.params)
      .map(([key, value]) => `${key}=${value}`)
      .join(', ')
    // bcrypt's and PBKDF2's work is time alone; the memory-hard two were already tried down to OWASP's
    // smallest-memory row of equal defence.
    const remedy =
      algorithm === 'argon2id' || algorithm === 'scrypt'
        ? "raise the target or add cores (the search already went down to OWASP's smallest-memory row)"
        : 'raise the target or add cores (its cost is time alone: it has no memory to lower)'
    return `even the fastest setting measured at OWASP's minimum for ${algorithm} or above (${params}) takes ${fastest.medianMs.toFixed(0)} ms here: ${remedy}; going below the minimum is not offered`
  }
  if (algorithm === 'bcrypt') {
    const steps = tried.map((m) => `cost ${m.params.cost} ${m.medianMs.toFixed(0)} ms`).join(', ')
    return `bcrypt's cost doubles the work per step and no cost lands within ±15 % of the target (${steps}); the closer one is chosen`
  }
  return `the nearest candidate measured is ${percent} off the target`
}

function positiveInteger(name: string, value: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    const bound = max === Number.MAX_SAFE_INTEGER ? '' : ` up to ${max}`
    throw new InvalidOptionError(`${name} must be a positive integer${bound}, got ${String(value)}`)
  }
  return value
}
