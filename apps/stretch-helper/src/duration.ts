import { InvalidOptionError } from '@authlab/core'

/**
 * A command-line duration in ms: "30ms", "20s", "1.5s" or a bare number of ms. Shared by the capacity
 * scenario's options and the bench's `--rtt`, so both accept the same spellings. A bad spelling throws
 * InvalidOptionError naming the option, which CLIs turn into a usage error.
 */
export function parseDurationMs(text: string, option: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(text.trim())
  if (!match) throw new InvalidOptionError(`${option} must be a duration like 30ms or 20s, got "${text}"`)
  return Number(match[1]) * (match[2] === 's' ? 1000 : 1)
}
