import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

/**
 * Which cores the measured work may use. On a virtual machine idle vCPUs are halted by the host, and a
 * thread that wakes on one pays for it in time the guest counts as its own, so a call's CPU time depends
 * on where its pool thread ran; pinning to one vCPU narrows the spread of paired ratios.
 *
 * So the CPU-time suites run on one core (`onMeasureCore`), with every thread and process they start.
 * The suites whose point is parallelism keep every core (concurrency pins only its event loop); the http
 * suites put their servers on the first allowed CPU and the load generator on the last. Only allowed CPUs
 * are used: a bench started under `taskset -c 0` stays there, unpinned.
 */

/** The CPUs this process may run on now (its affinity), in order; [] where /proc does not say. */
export function allowedCpus(): number[] {
  try {
    const list = /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? ''
    return list.split(',').flatMap((range) => {
      const [from, to = from] = range.split('-').map(Number)
      if (!Number.isInteger(from) || !Number.isInteger(to)) return []
      return Array.from({ length: (to as number) - (from as number) + 1 }, (_, i) => (from as number) + i)
    })
  } catch {
    return []
  }
}

/** Runs util-linux `taskset` with `args`: false when it fails or is not on PATH. */
function taskset(args: readonly string[]): boolean {
  try {
    execFileSync('taskset', args, { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** True when `taskset` is on PATH; without it nothing is pinned (and the notes say so). */
export const hasTaskset = () => taskset(['-p', String(process.pid)])

/** Sets the affinity of this process: every thread (`all`) or only its main thread, to a CPU list. */
const setAffinity = (list: string, all: boolean) =>
  taskset([...(all ? ['-a'] : []), '-cp', list, String(process.pid)])

/** Where a pin may go: the first and last allowed CPUs, when there are two or more and taskset exists. */
export interface Placement {
  /** The other side of the work: the http servers, row [2]'s helper. */
  readonly first: number
  /** The measuring side: the CPU-time suites, the event loop, the load generator. */
  readonly last: number
  /** Lets every thread of this process run where it could before. */
  release(): void
}

/** The CPUs allowed when the bench started, before any suite pinned it: every placement is within them. */
const STARTED_ON = allowedCpus()

/** This process's CPUs for pinning, or undefined (one allowed CPU, or no taskset); release restores them. */
export function placement(): Placement | undefined {
  const cpus = STARTED_ON
  if (cpus.length < 2 || !hasTaskset()) return undefined
  const before = cpus.join(',')
  return {
    first: cpus[0] as number,
    last: cpus.at(-1) as number,
    release: () => void setAffinity(before, true),
  }
}

/** Runs `work` with the pin released, and pins again afterwards: other suites run in between. */
export type Away = <U>(work: () => Promise<U>) => Promise<U>

/**
 * Runs `body` with this process (every thread, and the processes it starts) pinned to the last allowed
 * CPU; `body` learns the CPU, or undefined when nothing could be pinned, and gets `away` for work that
 * must run unpinned meanwhile. Released afterwards, also when `body` throws.
 */
export async function onMeasureCore<T>(
  body: (cpu: number | undefined, away: Away) => Promise<T>,
): Promise<T> {
  const at = pinProcess()
  const cpu = at?.last
  const away: Away = async (work) => {
    if (cpu === undefined) return work()
    at?.release()
    try {
      return await work()
    } finally {
      setAffinity(String(cpu), true)
    }
  }
  try {
    return await body(cpu, away)
  } finally {
    if (cpu !== undefined) at?.release()
  }
}

/** Pins every thread (`all`) or only the main thread to the last allowed CPU; undefined when nothing could be. */
function pinLast(all: boolean): Placement | undefined {
  const at = placement()
  return at && setAffinity(String(at.last), all) ? at : undefined
}

/** Pins every thread of this process, for a caller that releases it (the http suites, whose servers take the first). */
export const pinProcess = () => pinLast(true)

/**
 * Pins only the main thread (its event loop), leaving the threads that already exist (libuv's pool,
 * worker threads) free on every core; threads started later inherit the pin, so the caller starts its
 * pools first. A main-thread hasher timed unpinned carries the cost of its thread moving between vCPUs,
 * while parallel work needs all cores.
 */
export const pinMainThread = () => pinLast(false)

/** The note a one-core suite carries: where its work ran. */
export function placementNote(cpu: number | undefined): string {
  return cpu === undefined
    ? 'Not pinned (one core allowed, or taskset unavailable): threads moved between cores, which widens CPU-time figures.'
    : `Pinned to CPU ${cpu} with its threads and child processes (taskset).`
}
