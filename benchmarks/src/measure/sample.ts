import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { consume } from './measure.js'
import { median } from './stats.js'

/** CPU milliseconds of this process (user + system, every thread): other processes' work is not in it. */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

export interface Timing {
  /** CPU time this process spent, its threadpool and worker threads included. */
  readonly cpuMs: number
  readonly wallMs: number
}

// A full collection on demand without starting node with --expose-gc: the flag is set, and a fresh
// context picks up the `gc` function it exposes.
setFlagsFromString('--expose-gc')
const collect = runInNewContext('gc') as () => void

/**
 * Collects the garbage the previous candidate left (a pure-JS scrypt leaves tens of MB) and lets pending
 * callbacks and the GC's helper threads finish, so that work is not timed as the next candidate's.
 */
export async function settle(): Promise<void> {
  collect()
  await new Promise((resolve) => setImmediate(resolve))
}

/**
 * One round's figure for an operation: after `settle()`, the operation is repeated until `minMs` of
 * CPU time is spent (at least once), and the median of its calls is kept, so one call that paid for a page
 * fault storm or a collection does not become the round's figure. `budget: 'wall'` counts wall time
 * instead, for work done mostly by another process (a remote helper), where this process's CPU time
 * would take dozens of calls to add up.
 */
export async function timeRound(
  fn: () => Promise<unknown>,
  minMs: number,
  budget: 'cpu' | 'wall' = 'cpu',
): Promise<Timing> {
  await settle()
  const clock = budget === 'cpu' ? cpuMs : () => performance.now()
  const cpu: number[] = []
  const wall: number[] = []
  const start = clock()
  do {
    const [c0, w0] = [cpuMs(), performance.now()]
    consume(await fn())
    cpu.push(cpuMs() - c0)
    wall.push(performance.now() - w0)
  } while (clock() - start < minMs)
  return { cpuMs: median(cpu), wallMs: median(wall) }
}

/** One round of a candidate timed in adjacent pairs with its baseline. */
export interface PairedTiming {
  readonly candidate: Timing
  /** Baseline time ÷ candidate time on the pairing's clock, the median over pairs (> 1: the candidate is cheaper). */
  readonly vsBaseline: number
}

/** CPU and wall milliseconds of one call, on a settled heap. */
async function timeCall(fn: () => Promise<unknown>): Promise<{ cpu: number; wall: number }> {
  await settle()
  const [c0, w0] = [cpuMs(), performance.now()]
  consume(await fn())
  return { cpu: cpuMs() - c0, wall: performance.now() - w0 }
}

/**
 * Like `timeRound`, but every call of the candidate is paired with a call of its baseline right beside
 * it (the order flipped each pair), until the candidate has spent `minMs` of CPU. This machine's
 * virtual CPUs change speed by 2–3× within seconds (another tenant on the host), which CPU time cannot
 * see; calls a few milliseconds apart see nearly the same speed, so a pair's ratio keeps what the
 * candidate costs and drops what the machine was doing. Each call starts on a settled heap, so garbage
 * one side leaves (a pure-JS scrypt leaves tens of MB) is not collected on the other's time. `clock:
 * 'wall'` pairs and budgets by wall time instead, for work done mostly by another process.
 */
export async function timePairs(
  candidate: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
  minMs: number,
  clock: 'cpu' | 'wall' = 'cpu',
): Promise<PairedTiming> {
  const cpu: number[] = []
  const wall: number[] = []
  const ratios: number[] = []
  let spent = 0
  do {
    const baselineFirst = ratios.length % 2 === 0
    const before = baselineFirst ? await timeCall(baseline) : undefined
    const own = await timeCall(candidate)
    const base = before ?? (await timeCall(baseline))
    cpu.push(own.cpu)
    wall.push(own.wall)
    ratios.push(base[clock] / own[clock])
    spent += own[clock]
  } while (spent < minMs)
  return { candidate: { cpuMs: median(cpu), wallMs: median(wall) }, vsBaseline: median(ratios) }
}
