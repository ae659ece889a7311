import { availableParallelism } from 'node:os'
import { createRemoteScrypt } from '@authlab/stretch-remote'
import { ONEPW_PARAMS } from './params.js'
import { type HelperProcess, startHelperProcess } from './process.js'
import { nodeScrypt } from './scrypt.js'

export interface CapacityOptions {
  /** CPU the helper is pinned to (default 0); run the caller on another one. */
  helperCpu?: number
  /** Offered load as multiples of the measured capacity (default 0.5, 1, 2). */
  multipliers?: readonly number[]
  /** Arrivals per level, in ms (default 20,000). */
  durationMs?: number
  /** Each call's deadline, retries included (default 10,000: the client's default). */
  timeoutMs?: number
  /** Bench only: simulated round trip added by the helper to every answer. */
  rttMs?: number
  /** Sequential calls whose median is the scrypt time (default 8, after 2 discarded). */
  calibrationCalls?: number
  onProgress?: (message: string) => void
}

export interface CapacityLevel {
  multiplier: number
  offeredPerS: number
  calls: number
  /** Calls that actually arrived, per second: Poisson arrivals scatter around the offered rate. */
  arrivedPerS: number
  /** Calls that returned the right key (including those that ended after the arrival window). */
  completed: number
  /** Right keys returned inside the arrival window, per second of it. */
  completedPerS: number
  /** Latency of completed calls from their scheduled arrival (so queueing in the client counts). */
  p50Ms: number
  p99Ms: number
  /** 503 answers the client received (one call may receive several). */
  status503: number
  retries: number
  /** Typed errors by code. */
  errors: Record<string, number>
  /** Keys that differ from local scrypt: must be 0. */
  wrong: number
  /** Calls still pending 2 s after their deadline, or ending in an untyped error: must be 0. */
  unanswered: number
  /** Peak resident memory of the helper during the level (VmHWM), MiB. */
  helperPeakRssMiB: number | null
}

export interface CapacityResult {
  /** 1 when the helper is pinned to one core; else every core of the machine. */
  helperCores: number
  helperPinned: boolean
  /** Median time of one scrypt call through the idle helper, ms. */
  scryptMs: number
  /** helperCores ÷ scrypt time: completed calls per second the helper can sustain. */
  capacityPerS: number
  arrivals: string
  durationMs: number
  timeoutMs: number
  rttMs: number
  levels: CapacityLevel[]
}

const INPUTS = ['capacity-a', 'capacity-b', 'capacity-c', 'capacity-d'].map((s) => Buffer.from(s))
const SALT = 'identity.mozilla.com/picl/v1/scrypt'

function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number
}

/** Exponential inter-arrival times: a Poisson process, how independent clients arrive. */
const nextGapMs = (ratePerS: number) => (-Math.log(1 - Math.random()) / ratePerS) * 1000

async function calibrate(helper: HelperProcess, calls: number): Promise<number> {
  const remote = createRemoteScrypt({ url: helper.url, secret: helper.secret })
  const times: number[] = []
  try {
    for (let i = 0; i < calls + 2; i++) {
      const started = performance.now()
      await remote.derive(INPUTS[0] as Buffer, SALT, 32)
      if (i >= 2) times.push(performance.now() - started)
    }
  } finally {
    await remote.close()
  }
  return percentile(
    times.sort((a, b) => a - b),
    0.5,
  )
}

async function runLevel(
  helper: HelperProcess,
  expected: readonly Buffer[],
  ratePerS: number,
  options: Required<Pick<CapacityOptions, 'durationMs' | 'timeoutMs'>>,
): Promise<Omit<CapacityLevel, 'multiplier' | 'offeredPerS' | 'helperPeakRssMiB'>> {
  // Independent clients each bring their own connection: a small pool would queue the overload
  // inside this process, where the helper never sees it and cannot answer 503.
  const remote = createRemoteScrypt({
    url: helper.url,
    secret: helper.secret,
    timeoutMs: options.timeoutMs,
    connections: 256,
  })
  const latencies: number[] = []
  const errors: Record<string, number> = {}
  let wrong = 0
  let untyped = 0
  let settled = 0
  let withinWindow = 0
  const pending: Promise<void>[] = []
  const start = performance.now()
  for (let at = nextGapMs(ratePerS), i = 0; at < options.durationMs; at += nextGapMs(ratePerS), i++) {
    const wait = start + at - performance.now()
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    const scheduled = start + at
    const which = i % INPUTS.length
    pending.push(
      remote.derive(INPUTS[which] as Buffer, SALT, 32).then(
        (key) => {
          settled++
          if (!Buffer.from(key).equals(expected[which] as Buffer)) wrong++
          else {
            latencies.push(performance.now() - scheduled)
            if (performance.now() - start <= options.durationMs) withinWindow++
          }
        },
        (error: { code?: unknown }) => {
          settled++
          const code =
            typeof error.code === 'string' && error.code.startsWith('ERR_AUTHLAB_') ? error.code : null
          if (code) errors[code] = (errors[code] ?? 0) + 1
          else untyped++
        },
      ),
    )
  }
  const grace = new Promise((resolve) => setTimeout(resolve, options.timeoutMs + 2000).unref())
  await Promise.race([Promise.all(pending), grace])
  const { overloaded, retries } = remote.stats()
  await remote.close()
  latencies.sort((a, b) => a - b)
  return {
    calls: pending.length,
    arrivedPerS: pending.length / (options.durationMs / 1000),
    completed: latencies.length,
    // Completions inside the arrival window: what the helper sustained while load was offered.
    completedPerS: withinWindow / (options.durationMs / 1000),
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    status503: overloaded,
    retries,
    errors,
    wrong,
    unanswered: pending.length - settled + untyped,
  }
}

/**
 * Offered load at multiples of the helper's capacity (cores ÷ scrypt time), open loop: arrivals do
 * not wait for answers, as independent clients would not. A fresh helper per level, pinned to one
 * core, so one level's backlog or memory does not leak into the next. Every key is checked against
 * local scrypt.
 */
export async function runCapacity(options: CapacityOptions = {}): Promise<CapacityResult> {
  const helperCpu = options.helperCpu ?? 0
  const durationMs = options.durationMs ?? 20_000
  const timeoutMs = options.timeoutMs ?? 10_000
  const rttMs = options.rttMs ?? 0
  const progress = options.onProgress ?? (() => {})
  const expected = await Promise.all(
    INPUTS.map((input) => nodeScrypt(input, Buffer.from(SALT), ONEPW_PARAMS)),
  )

  const calibration = await startHelperProcess({ cpu: helperCpu, rttMs })
  const scryptMs = await calibrate(calibration, options.calibrationCalls ?? 8).finally(() =>
    calibration.stop(),
  )
  const helperCores = calibration.pinned ? 1 : availableParallelism()
  const capacityPerS = (helperCores * 1000) / scryptMs
  progress(`scrypt ${scryptMs.toFixed(0)} ms through the helper: capacity ${capacityPerS.toFixed(2)}/s`)

  const levels: CapacityLevel[] = []
  for (const multiplier of options.multipliers ?? [0.5, 1, 2]) {
    const helper = await startHelperProcess({ cpu: helperCpu, rttMs })
    try {
      const offeredPerS = multiplier * capacityPerS
      progress(`${multiplier}× capacity: ${offeredPerS.toFixed(2)} calls/s for ${durationMs / 1000} s`)
      const level = await runLevel(helper, expected, offeredPerS, { durationMs, timeoutMs })
      const rss = helper.peakRssBytes()
      levels.push({
        multiplier,
        offeredPerS,
        ...level,
        helperPeakRssMiB: rss === undefined ? null : rss / 2 ** 20,
      })
    } finally {
      await helper.stop()
    }
  }
  return {
    helperCores,
    helperPinned: calibration.pinned,
    scryptMs,
    capacityPerS,
    arrivals: 'Poisson (open loop)',
    durationMs,
    timeoutMs,
    rttMs,
    levels,
  }
}
