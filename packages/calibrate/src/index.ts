import { performance } from 'node:perf_hooks'
import {
  ARGON2ID,
  BCRYPT,
  InvalidOptionError,
  type KdfParams,
  owaspFloor,
  ParameterLimitError,
  type PasswordHasher,
  PBKDF2_SHA256,
  SCRYPT,
  TimeoutError,
} from '@authlab/core'
import { type Measurement, measureHasher, OutOfTime } from './measure.js'
import { type CalibratedAlgorithm, type Params, SEARCHES, TOLERANCE } from './search.js'
import { resolveSettings } from './settings.js'

// Apps branch on these errors' codes; re-exported so a login route needs only this package.
export * from '@authlab/core/errors'

export * from './advice.js'
export type { Measurement } from './measure.js'
export type { CalibratedAlgorithm } from './search.js'
export { DEFAULTS, LIMITS, resolveSettings } from './settings.js'

export interface CalibrateOptions {
  readonly algorithm: CalibratedAlgorithm
  /** Makes a hasher for candidate parameters, e.g. `(params) => createHasher(params)`. */
  readonly factory: (params: Params) => PasswordHasher
  /** The median hash latency wanted at `concurrency`, in ms (OWASP suggests well under a second). */
  readonly targetMs: number
  /**
   * Logins hashing at the same time (default: the machine's cores, `os.availableParallelism()`).
   * Latency is measured with this many in flight, or with the hasher's `info.maxConcurrent` when it
   * refuses more (the result says so).
   */
  readonly concurrency?: number
  /** Memory one hash may use, in bytes (default 64 MiB, at most 1 GiB). Bounds argon2's m and scrypt's N. */
  readonly maxMemory?: number
  /** Timed hashes per candidate (default 12, at least 2 × concurrency). */
  readonly samples?: number
  /**
   * Time the whole search may take, in ms (default 10 minutes, at most an hour): a candidate is not
   * measured when what was measured predicts it would end later (see `stopped`).
   */
  readonly maxTimeMs?: number
  readonly clock?: () => number
  readonly onMeasured?: (measurement: Measurement) => void
}

/** Why a search ended before it would have: the time ran out, or measuring a candidate failed. */
export interface Stopped {
  readonly kind: 'time' | 'error'
  readonly params: Params
  readonly message: string
}

export interface CalibrationResult {
  readonly algorithm: CalibratedAlgorithm
  readonly targetMs: number
  /** Hashes in flight while measuring: `requestedConcurrency`, or the hasher's `maxConcurrent` if lower. */
  readonly concurrency: number
  readonly requestedConcurrency: number
  /** Why `concurrency` is below `requestedConcurrency`, when it is. */
  readonly concurrencyNote?: string
  readonly params: Params
  readonly medianMs: number
  readonly p99Ms: number
  /** True when the median is within ±15 % of the target. */
  readonly met: boolean
  /** Why the target was not met, when it was not. */
  readonly reason?: string
  /** Set when the search ended early; the result is the best of what was measured. */
  readonly stopped?: Stopped
  /** Every candidate measured, in order. */
  readonly tried: readonly Measurement[]
  /** Ready to paste: `createHasher({ … })`. */
  readonly snippet: string
}

const PROFILES = {
  argon2id: ARGON2ID,
  bcrypt: BCRYPT,
  scrypt: SCRYPT,
  'pbkdf2-sha256': PBKDF2_SHA256,
} as const

/** How much longer a hash of `next` takes than one of `last`: the profile's work units (RFC 9106 m·t, RFC 7914 N·r·p, 2^cost, iterations). */
function workRatio(algorithm: CalibratedAlgorithm, last: Params, next: Params): number {
  const units = (params: Params) => PROFILES[algorithm].work(params as KdfParams, 32).units
  return units(next) / units(last)
}

/** The time limit was spent before the first candidate could be measured: nothing to report. */
export class OutOfTimeError extends TimeoutError {}

/** Stops a search from inside `measure`: the search functions only ever see a measurement or this. */
class SearchStopped extends Error {
  constructor(
    readonly stopped: Stopped,
    readonly failure?: unknown,
  ) {
    super(stopped.message)
  }
}

/**
 * Picks parameters that make one hash take about `targetMs` on this machine at the given concurrency,
 * never weaker than the OWASP Password Storage Cheat Sheet's minimums, and says so when the target
 * cannot be met within ±15 %. A candidate whose measurement fails, or would end past `maxTimeMs`,
 * ends the search with the best of what was measured (`stopped`); with nothing measured, it throws
 * (OutOfTimeError, code ERR_AUTHLAB_TIMEOUT, when the time ran out).
 */
export async function calibrate(options: CalibrateOptions): Promise<CalibrationResult> {
  const { algorithm, factory } = options
  const settings = resolveSettings(options)
  if (typeof factory !== 'function')
    throw new InvalidOptionError('factory must be a function (params) => hasher')
  const search = SEARCHES[algorithm]
  if (!search) {
    throw new InvalidOptionError(
      `algorithm must be one of ${Object.keys(SEARCHES).join(', ')}, got ${String(algorithm)}`,
    )
  }
  const clock = options.clock ?? (() => performance.now())
  const deadline = clock() + settings.maxTimeMs
  const tried: Measurement[] = []
  let capped: { concurrency: number; note: string } | undefined

  const measure = async (params: Params): Promise<Measurement> => {
    // What is measured is what the result may name: nothing below OWASP's floor ever is.
    const floor = owaspFloor(algorithm, params)
    if (!floor.meets)
      throw new ParameterLimitError(`calibrate never measures below OWASP's floor: ${floor.reason}`)
    const last = tried.at(-1)
    const predictedMs = last ? last.durationMs * workRatio(algorithm, last.params, params) : 0
    if (clock() + predictedMs > deadline) throw outOfTime(params, predictedMs, settings.maxTimeMs)
    let m: Measurement
    try {
      const hasher = factory(params)
      capped ??= capConcurrency(hasher, settings.concurrency)
      const concurrency = capped?.concurrency ?? settings.concurrency
      m = await measureHasher(hasher, params, {
        concurrency,
        samples: Math.max(settings.samples, 2 * concurrency),
        clock,
        deadline,
      })
    } catch (error) {
      if (error instanceof OutOfTime) throw outOfTime(params, error.predictedMs, settings.maxTimeMs)
      throw new SearchStopped({ kind: 'error', params, message: describeFailure(params, error) }, error)
    }
    tried.push(m)
    options.onMeasured?.(m)
    return m
  }

  let stopped: Stopped | undefined
  try {
    await search({ targetMs: settings.targetMs, maxMemory: settings.maxMemory, measure })
  } catch (error) {
    if (!(error instanceof SearchStopped)) throw error
    stopped = error.stopped
    if (tried.length === 0) {
      if (stopped.kind === 'time') throw new OutOfTimeError(stopped.message)
      // Nothing measured: the caller gets the hasher's own error (a typed one says what to fix).
      throw error.failure
    }
  }
  return summarise(algorithm, settings.targetMs, settings.concurrency, tried, capped, stopped)
}

function outOfTime(params: Params, predictedMs: number, maxTimeMs: number): SearchStopped {
  return new SearchStopped({
    kind: 'time',
    params,
    message: `measuring ${formatParams(params)} would end past the run's time limit (${formatDuration(maxTimeMs)}; predicted ${formatDuration(predictedMs)} from what was measured), so it was not measured`,
  })
}

function describeFailure(params: Params, error: unknown): string {
  const { code, message } = error as { code?: string; message?: string }
  return `measuring ${formatParams(params)} failed: ${code ? `${code} ` : ''}${String(message ?? error)}`
}

/**
 * A hasher that refuses hashes past its `maxConcurrent` (an OverloadError, what a login would answer
 * 503 with) cannot be measured with more in flight: measure it at its bound, and say so.
 */
function capConcurrency(
  hasher: PasswordHasher,
  requested: number,
): { concurrency: number; note: string } | undefined {
  const bound = hasher.info.maxConcurrent
  if (bound === undefined || bound >= requested) return undefined
  return {
    concurrency: bound,
    note: `${hasher.info.name} refuses more than ${bound} hashes in flight (maxConcurrent; OverloadError, HTTP 503): measured with ${bound}; of ${requested} logins at once, the others would be refused, not slowed`,
  }
}

function summarise(
  algorithm: CalibratedAlgorithm,
  targetMs: number,
  requestedConcurrency: number,
  tried: readonly Measurement[],
  capped: { concurrency: number; note: string } | undefined,
  stopped: Stopped | undefined,
): CalibrationResult {
  const best = closest(tried, targetMs)
  const deviation = best.medianMs / targetMs - 1
  const met = Math.abs(deviation) <= TOLERANCE
  return {
    algorithm,
    targetMs,
    concurrency: best.concurrency,
    requestedConcurrency,
    ...(capped ? { concurrencyNote: capped.note } : {}),
    params: best.params,
    medianMs: best.medianMs,
    p99Ms: best.p99Ms,
    met,
    ...(met ? {} : { reason: explain(algorithm, deviation, tried, targetMs, stopped) }),
    ...(stopped ? { stopped } : {}),
    tried,
    snippet: `createHasher({ ${Object.entries(best.params)
      .map(([key, value]) => `${key}: ${value}`)
      .join(', ')} })`,
  }
}

function formatParams(params: Params): string {
  return Object.entries(params)
    .map(([key, value]) => `${key}=${value}`)
    .join(', ')
}

function formatDuration(ms: number): string {
  if (ms >= 120_000) return `${(ms / 60_000).toFixed(0)} min`
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`
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
  stopped: Stopped | undefined,
): string {
  const percent = `${deviation > 0 ? '+' : ''}${(deviation * 100).toFixed(0)} %`
  // A search cut short proves nothing about the settings it did not reach.
  if (stopped)
    return `the search stopped: ${stopped.message}; the nearest candidate measured is ${percent} off the target`
  // Only what was measured: the fastest setting tried is the one that shows the minimum is too slow.
  const fastest = tried.reduce((a, m) => (m.medianMs < a.medianMs ? m : a))
  if (deviation > 0 && fastest.medianMs > targetMs) {
    const params = formatParams(fastest.params)
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
