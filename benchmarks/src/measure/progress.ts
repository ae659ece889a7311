import type { Progress } from '../types.js'

function seconds(ms: number): string {
  const s = Math.round(ms / 1000)
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`
}

/**
 * Progress lines on stderr (stdout stays for the tables): suite, step k/n, the candidate, and the time
 * left in the suite extrapolated from the steps done so far.
 */
export function stderrProgress(
  suite: string,
  write: (line: string) => void = (l) => process.stderr.write(l),
): Progress {
  let total = 0
  let done = 0
  let started = 0
  return {
    plan(steps) {
      total = steps
      done = 0
      started = performance.now()
    },
    step(label) {
      const elapsed = performance.now() - started
      const left = done > 0 ? ` · ~${seconds((elapsed / done) * (total - done))} left in suite` : ''
      done++
      write(`[${suite} ${done}/${total}${left}] ${label}\n`)
    },
    note(message) {
      write(`[${suite}] ${message}\n`)
    },
  }
}
