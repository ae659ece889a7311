import { execFileSync } from 'node:child_process'

/**
 * Which cores the measured work may use. A thread free to move between virtual CPUs is timed with
 * every move: on a 2-vCPU KVM guest, 40 back-to-back pairs of one `crypto.pbkdf2` call (100,000
 * iterations) read 21 or 32 ms of CPU depending on where the pool thread ran (the pair ratios spread
 * by 28 %, a standard deviation in log space), and 20–23 ms (5 %) with the process pinned to one vCPU;
 * scrypt went from 7 % to 4 %, argon2id from 10 % to 7.5 %. Idle vCPUs are halted by the host and a
 * thread that wakes on one pays for it in time the guest counts as its own.
 *
 * So the CPU-time suites run on one core (`measureCpu`): this process and every thread and process it
 * starts (the libuv pool, worker threads, the ids suite's measuring processes) inherit the pin. The
 * suites whose point is parallelism (concurrency, lag) keep every core; the http suite puts its
 * servers on CPU 0 and the load generator on `measureCpu`.
 */

/** The core the CPU-time suites (and the http load generator) run on: the last one, away from CPU 0. */
export function measureCpu(cores: number): number {
  return Math.max(0, cores - 1)
}

/** True when util-linux `taskset` is on PATH; without it nothing is pinned (and the notes say so). */
export function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** Pins every thread of a process (default: this one) to one CPU; false when taskset is unavailable. */
export function pin(cpu: number, pid = process.pid): boolean {
  try {
    execFileSync('taskset', ['-a', '-cp', String(cpu), String(pid)], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** Undoes `pin`: lets every thread of the process run on every CPU again. */
export function unpin(cores: number, pid = process.pid): void {
  try {
    execFileSync('taskset', ['-a', '-cp', `0-${cores - 1}`, String(pid)], { stdio: 'ignore' })
  } catch {
    // Nothing was pinned.
  }
}

/**
 * Runs `body` with this process pinned to `measureCpu(cores)` when the box has two cores or more and
 * taskset exists; `body` learns the CPU (or undefined: not pinned). Unpinned again afterwards, also
 * when `body` throws.
 */
export async function onMeasureCore<T>(cores: number, body: (cpu: number | undefined) => Promise<T>) {
  const cpu = measureCpu(cores)
  const pinned = cores >= 2 && hasTaskset() && pin(cpu)
  try {
    return await body(pinned ? cpu : undefined)
  } finally {
    if (pinned) unpin(cores)
  }
}

/** The note a one-core suite carries: where its work ran. */
export function placementNote(cpu: number | undefined): string {
  return cpu === undefined
    ? 'Not pinned (one core, or taskset unavailable): threads moved between cores, which widens CPU-time figures.'
    : `This process, its threads and the processes it started ran on CPU ${cpu} alone (taskset), so no thread was timed while moving between cores.`
}
