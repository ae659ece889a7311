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
