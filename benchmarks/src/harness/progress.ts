import type { Progress } from './suite.js'

function seconds(ms: number): string {
  const s = Math.round(ms / 1000)
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`
}

/**
 * The time left: the steps still to run times the recent pace, an exponentially weighted mean of the
 * completed steps' durations (each new step weighs 0.3). A suite's steps are not alike, so a whole-suite
 * mean lags a change of phase; the weighted pace follows within a few steps. A slower kind of step still
 * to come no pace foresees, hence "at this pace". Undefined until a step has completed.
 */
export function timeLeftMs(durations: readonly number[], remaining: number): number | undefined {
  const [first, ...rest] = durations
  if (first === undefined) return undefined
  const pace = rest.reduce((mean, d) => mean + PACE_WEIGHT * (d - mean), first)
  return pace * Math.max(remaining, 0)
}

const PACE_WEIGHT = 0.3

/**
 * Progress lines on stderr (stdout stays for the tables): suite, step k/n, the time left in the suite
 * from the measured pace, and the candidate, cut to the terminal's width so a line never wraps.
 */
export function stderrProgress(
  suite: string,
  write: (line: string) => void = (l) => process.stderr.write(l),
  options: { now?: () => number; width?: number } = {},
): Progress {
  const now = options.now ?? (() => performance.now())
  const width = options.width ?? 100
  const line = (text: string) => {
    const chars = [...text]
    write(`${chars.length > width ? `${chars.slice(0, width - 1).join('')}…` : text}\n`)
  }
  let total = 0
  let done = 0
  let last: number | undefined
  const durations: number[] = []
  return {
    plan(steps) {
      total = steps
      done = 0
      last = undefined
      durations.length = 0
    },
    step(label) {
      const at = now()
      // The previous step ended where this one starts.
      if (last !== undefined) durations.push(at - last)
      last = at
      const left = timeLeftMs(durations, total - done)
      done++
      // "at this pace": an extrapolation of the steps done; a later kind of step can be slower. Past the
      // plan, a race runs rounds until a ratio is decided or its time allowance is spent: no step count
      // foresees that, so no time is promised.
      const past = done > total
      const estimate = past
        ? ' · extra round: a ratio is undecided'
        : left === undefined
          ? ''
          : ` · ~${seconds(left)} left at this pace`
      line(`[${suite} ${done}/${total}${past ? '+' : ''}${estimate}] ${label}`)
    },
    note(message) {
      line(`[${suite}] ${message}`)
      // A note marks a pause (other suites ran in an interlude): the time until the next step is none of its steps'.
      last = undefined
    },
  }
}
