import { readdirSync, readFileSync } from 'node:fs'

/**
 * CPU milliseconds another process has used so far, every thread included: the sum over its threads of
 * the first field of /proc/<pid>/task/<tid>/schedstat, nanoseconds on a CPU (Linux
 * Documentation/scheduler/sched-stats.rst). A thread that has exited is no longer counted, so the
 * difference of two readings is exact only for threads that lived through both, as a server's event
 * loop and libuv pool do. Undefined where /proc does not have it (not Linux, or the process is gone).
 */
export function processCpuMs(pid: number): number | undefined {
  try {
    let ns = 0
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')
      ns += Number(fields[0])
    }
    return Number.isFinite(ns) ? ns / 1e6 : undefined
  } catch {
    return undefined
  }
}
