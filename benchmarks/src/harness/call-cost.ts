/**
 * The wall time of one warm call of each hasher configuration, as the first suite to time it saw it:
 * the quick caps are decided from it, so a later suite does not spend seconds timing a 2-second pure-JS
 * scrypt only to leave it out. Keyed by candidate and parameters; one run, one process.
 */
const known = new Map<string, number>()

/** The key of a configuration: its candidate and the parameters it runs. */
export const configurationKey = (candidate: string, params: string) => `${candidate} ${params}`

export function recordCallMs(key: string, ms: number): void {
  if (!known.has(key) && Number.isFinite(ms)) known.set(key, ms)
}

/** The recorded warm-call time, if a suite already timed this configuration in this run. */
export function knownCallMs(key: string): number | undefined {
  return known.get(key)
}
