import { isAbsolute, relative, resolve, sep } from 'node:path'
import { InvalidOptionError } from '@authlab/core'
import { NotRegularFileError, readRegularFile } from '../files/regular.js'
import { migrate } from './migrate.js'
import { schemaErrors } from './schema.js'
import { RESULTS_FORMAT, type ResultsFile } from './types.js'

/**
 * Why `file` could not be read as JSON, without quoting it: Node's SyntaxError message carries the
 * text around the error, and a file named by someone else (a README marker) may be any file at all.
 */
function unreadableReason(error: unknown): string {
  if (error instanceof NotRegularFileError) return error.what
  if (!(error instanceof SyntaxError)) return (error as NodeJS.ErrnoException).code ?? 'unreadable'
  const position = /position (\d+)/.exec(error.message)?.[1]
  return position === undefined ? 'not valid JSON' : `not valid JSON at position ${position}`
}

/**
 * Bounds on what one results file may cost to read, judge and compare: about ten times what the bench
 * writes (at most 40 rounds per ratio, the full mode's maxRounds). Every ratio's interval is a bootstrap
 * of its rounds, so the work of reading a file grows with its rounds in all.
 */
export const MAX_RESULTS_BYTES = 4 * 2 ** 20
export const MAX_ROUNDS_READ = 50_000

/**
 * A results file that cannot be read: missing, not a regular file, over MAX_RESULTS_BYTES, not JSON,
 * not a results file of a format read here, or holding more than MAX_ROUNDS_READ rounds. The CLI exits
 * 3 on it, never 1, which says "regression".
 */
export class UnreadableResultsError extends InvalidOptionError {}

/** Every per-round value a results file holds: the rows' own rounds and each ratio's. */
const roundsIn = (file: ResultsFile) =>
  file.suites
    .flatMap((suite) => suite.rows)
    .flatMap((row) => [row.rounds ?? [], ...row.ratios.map((q) => q.rounds)])
    .reduce((count, rounds) => count + rounds.length, 0)

/** The format a file says it has, when it is one of ours. */
const formatOf = (data: unknown) => {
  const format = (data as { format?: unknown } | null)?.format
  return typeof format === 'string' ? format : undefined
}

/**
 * Reads and validates a results file of the current format or the one before it (migrated): a regular
 * file (never through a symbolic link, never a FIFO: `readRegularFile`) within MAX_RESULTS_BYTES and
 * MAX_ROUNDS_READ; anything else is an UnreadableResultsError naming the problem. Its verdicts are
 * the file's own; `decideRun` (src/stats/decide.ts) judges them again by the current rule.
 */
export function readResultsFile(file: string): ResultsFile {
  let data: unknown
  try {
    data = JSON.parse(readRegularFile(file, MAX_RESULTS_BYTES))
  } catch (error) {
    throw new UnreadableResultsError(`${file}: not a readable JSON file (${unreadableReason(error)})`)
  }
  const format = formatOf(data)
  const version = format === 'authlab-bench/2' ? 2 : 3
  if (format?.startsWith('authlab-bench/') && format !== RESULTS_FORMAT && version !== 2) {
    throw new UnreadableResultsError(
      `${file}: written as ${format}, this is ${RESULTS_FORMAT}: it has no per-round ratios to compare; re-run the bench`,
    )
  }
  const errors = schemaErrors(data, version)
  if (errors.length > 0) {
    throw new UnreadableResultsError(
      `${file}: not an authlab-bench results file: ${errors.slice(0, 5).join('; ')}`,
    )
  }
  const results = version === 2 ? migrate(data) : (data as ResultsFile)
  const rounds = roundsIn(results)
  if (rounds > MAX_ROUNDS_READ)
    throw new UnreadableResultsError(
      `${file}: holds ${rounds} rounds, more than the ${MAX_ROUNDS_READ} read from one results file`,
    )
  return results
}

/**
 * A results file named by data (a README's figures marker): a relative path to a `.json` file inside
 * `root`, resolved; anything else (absolute, `..` out of the repository, another kind of file) is an
 * InvalidOptionError before anything is read.
 */
export function resultsPathInside(root: string, file: string): string {
  const refused = () =>
    new InvalidOptionError(
      `figures may name only .json results files inside the repository, got ${JSON.stringify(file)}`,
    )
  // The type first: resolve() throws a plain TypeError on anything but a string.
  if (typeof file !== 'string' || isAbsolute(file) || !file.endsWith('.json')) throw refused()
  const path = resolve(root, file)
  const inside = relative(resolve(root), path)
  if (inside === '' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) throw refused()
  return path
}
