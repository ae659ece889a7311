import { availableParallelism } from 'node:os'
import { ARGON2ID, InvalidOptionError, SCRYPT } from '@authlab/core'

const MiB = 1024 * 1024

/**
 * The most memory core's caps let one hash use: argon2id m ≤ 2^20 KiB and scrypt N ≤ 2^20 at r = 8
 * (128·r·N bytes, RFC 7914 §2), 1 GiB each. A larger limit buys no stronger setting, only allocations
 * the operating system may kill the process for (argon2id takes whatever m it is given).
 */
const MAX_MEMORY = Math.min(capOf(ARGON2ID.caps, 'm') * 1024, 128 * 8 * 2 ** capOf(SCRYPT.caps, 'ln'))

function capOf(caps: Readonly<Record<string, number>>, key: string): number {
  const cap = caps[key]
  if (cap === undefined) throw new Error(`@authlab/core's profile has no cap on ${key}`)
  return cap
}

/**
 * Bounds on what a run may be asked for, so no option makes it run for hours or exhaust memory: a login
 * hash of more than 10 s is no login (OWASP Password Storage Cheat Sheet: well under a second), more
 * concurrent logins than this only queue on the cores, more timed hashes than this add nothing to a
 * median, and a whole run may take at most an hour.
 */
export const LIMITS = {
  maxTargetMs: 10_000,
  maxConcurrency: 1024,
  maxSamples: 1000,
  maxMemory: MAX_MEMORY,
  maxTimeMs: 3_600_000,
} as const

/**
 * What an option left out means, the same for `calibrate()` and the command: as many logins at once as
 * the machine has cores (one at a time flatters the latency), 12 timed hashes, 64 MiB per hash, and ten
 * minutes for the whole run.
 */
export const DEFAULTS = {
  concurrency: (): number => availableParallelism(),
  samples: 12,
  maxMemory: 64 * MiB,
  maxTimeMs: 600_000,
} as const

export interface SettingsInput {
  readonly targetMs: number
  readonly concurrency?: number | undefined
  readonly samples?: number | undefined
  readonly maxMemory?: number | undefined
  readonly maxTimeMs?: number | undefined
}

export type Settings = Required<{ [K in keyof SettingsInput]: number }>

/** Each option checked against its bound (InvalidOptionError), defaults filled in. */
export function resolveSettings(input: SettingsInput): Settings {
  const { targetMs } = input
  if (!(Number.isFinite(targetMs) && targetMs > 0 && targetMs <= LIMITS.maxTargetMs)) {
    throw new InvalidOptionError(
      `targetMs must be a number of milliseconds above 0 and at most ${LIMITS.maxTargetMs}, got ${String(targetMs)}`,
    )
  }
  const maxTimeMs = input.maxTimeMs ?? DEFAULTS.maxTimeMs
  if (!(Number.isFinite(maxTimeMs) && maxTimeMs > 0 && maxTimeMs <= LIMITS.maxTimeMs)) {
    throw new InvalidOptionError(
      `maxTimeMs must be a number of milliseconds above 0 and at most ${LIMITS.maxTimeMs}, got ${String(maxTimeMs)}`,
    )
  }
  return {
    targetMs,
    concurrency: positiveInteger(
      'concurrency',
      input.concurrency ?? DEFAULTS.concurrency(),
      LIMITS.maxConcurrency,
    ),
    samples: positiveInteger('samples', input.samples ?? DEFAULTS.samples, LIMITS.maxSamples),
    maxMemory: positiveInteger('maxMemory', input.maxMemory ?? DEFAULTS.maxMemory, LIMITS.maxMemory),
    maxTimeMs,
  }
}

function positiveInteger(name: string, value: number, max: number): number {
  if (!Number.isSafeInteger(value) || value < 1 || value > max)
    throw new InvalidOptionError(`${name} must be a positive integer up to ${max}, got ${String(value)}`)
  return value
}
