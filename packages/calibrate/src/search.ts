import { OWASP_ARGON2ID_ROWS, OWASP_SCRYPT_ROWS } from '@authlab/core'
import type { Measurement } from './measure.js'

export type CalibratedAlgorithm = 'argon2id' | 'bcrypt' | 'scrypt' | 'pbkdf2-sha256'
export type Params = Readonly<Record<string, number>>

/** A median within ±15 % of the target meets it. */
export const TOLERANCE = 0.15

export interface SearchContext {
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
// t=1" down to "m=7168 (7 MiB), t=5"; fewer passes need more memory (core's table of the sheet).
const ARGON2_FLOORS: ReadonlyArray<readonly [m: number, t: number]> = OWASP_ARGON2ID_ROWS.map((r) => [
  r.m,
  r.t,
])

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
const SCRYPT_FLOORS: ReadonlyArray<readonly [ln: number, p: number]> = OWASP_SCRYPT_ROWS.map((r) => [
  r.ln,
  r.p,
])

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

export const SEARCHES: Record<CalibratedAlgorithm, (ctx: SearchContext) => Promise<void>> = {
  argon2id: searchArgon2id,
  bcrypt: searchBcrypt,
  scrypt: searchScrypt,
  'pbkdf2-sha256': searchPbkdf2,
}
