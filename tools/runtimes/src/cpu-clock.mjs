import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

/**
 * @typedef {{ source: 'schedstat' | 'stat', resolutionMs: number, read: () => number }} CpuClock
 *   `read()` is the CPU time the process has used so far, in milliseconds.
 */

/**
 * A reader of another process's CPU time, from Linux's /proc, for runtimes whose own clocks cannot time
 * a batch (workerd). Two sources, the finer first:
 * - `/proc/<pid>/task/<tid>/schedstat`, first field: the scheduler's on-CPU time of each thread in
 *   nanoseconds (Documentation/scheduler/sched-stats.rst), summed over the process's threads;
 * - `/proc/<pid>/stat` fields 14 and 15, utime + stime, in clock ticks of 1/CLK_TCK s (proc_pid_stat(5)):
 *   10 ms at the usual USER_HZ of 100, so a batch timed with it must last hundreds of milliseconds.
 * Returns why neither is readable instead of a clock (no /proc: not Linux).
 * @param {number} pid
 * @returns {{ ok: true, clock: CpuClock } | { ok: false, reason: string }}
 */
export function processCpuClock(pid) {
  const schedstat = () => {
    let ns = 0
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0])
      } catch {
        // A thread that exited between the listing and the read: its time is gone from the sum, which
        // is why the clock is read around work in one long-lived request thread, not across restarts.
      }
    }
    return ns / 1e6
  }
  try {
    if (schedstat() > 0)
      return { ok: true, clock: { source: 'schedstat', resolutionMs: 1e-6, read: schedstat } }
  } catch {
    // No schedstat (a kernel without CONFIG_SCHED_INFO): fall back to the tick counters.
  }
  const tickMs = 1000 / clockTicksPerSecond()
  const stat = () => {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its end.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * tickMs
  }
  try {
    if (Number.isFinite(stat()))
      return { ok: true, clock: { source: 'stat', resolutionMs: tickMs, read: stat } }
  } catch (error) {
    return { ok: false, reason: `cannot read /proc/${pid}/stat: ${/** @type {Error} */ (error).message}` }
  }
  return { ok: false, reason: `/proc/${pid}/stat holds no CPU times` }
}

/** USER_HZ, the unit of /proc's tick counters: 100 on every mainstream Linux build, asked anyway. */
function clockTicksPerSecond() {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim())
    return ticks > 0 ? ticks : 100
  } catch {
    return 100
  }
}
