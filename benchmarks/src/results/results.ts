import { isAbsolute, relative, resolve, sep } from 'node:path'
import { InvalidOptionError } from '@authlab/core'
import AjvModule from 'ajv'
import { NotRegularFileError, readRegularFile } from '../files/regular.js'
import { rejudge } from '../measure/verdict.js'
import type { Environment } from '@authlab/workspace'
import type { Row } from '../types.js'

/** Version 2: ratios carry their per-round values and a verdict; the run records its command line. */
export const RESULTS_FORMAT = 'authlab-bench/2'

export interface SuiteRecord {
  readonly name: string
  readonly description: string
  /** How the suite measures (its declaration's method); files written before it was recorded have none. */
  readonly method?: string
  readonly notes: readonly string[]
  readonly rows: readonly Row[]
}

/** How the run was asked for: enough to repeat it. */
export interface RunRecord {
  readonly command: readonly string[]
  readonly suites: readonly string[]
  readonly filter: string | null
  readonly candidateFiles: readonly string[]
  readonly seed: number
  /** The load average when the last suite finished (the environment holds the one at the start). */
  readonly loadAverageAtEnd: readonly number[]
}

/** What `results/<date>-<commit>.json` holds: the environment and every figure of the run. */
export interface ResultsFile {
  readonly format: typeof RESULTS_FORMAT
  readonly environment: Environment
  readonly run: RunRecord
  readonly suites: readonly SuiteRecord[]
  readonly skipped: readonly { name: string; reason: string }[]
}

const number = { type: 'number' }
const string = { type: 'string' }
const stringList = { type: 'array', items: string }
const numberList = { type: 'array', items: number }

/** An object schema with exactly these properties, each required unless named in `optional`. */
const record = (properties: Record<string, object>, optional: readonly string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties).filter((key) => !optional.includes(key)),
  properties,
})

const ratioSchema = record(
  {
    baseline: string,
    against: string,
    value: number,
    low: number,
    high: number,
    rounds: numberList,
    // Files written before the current rule said 'different' / 'no difference'; every verdict is
    // judged again from the rounds when a file is read.
    verdict: { enum: ['better', 'worse', 'same', 'undecided', 'different', 'no difference'] },
    withheld: string,
  },
  ['against', 'withheld'],
)

const rowSchema = record(
  {
    suite: string,
    group: string,
    key: record({ setting: string, operation: string }),
    candidate: string,
    label: string,
    runtime: string,
    value: number,
    unit: string,
    higherIsBetter: { type: 'boolean' },
    rme: { type: 'number', minimum: 0 },
    samples: { type: 'integer', minimum: 1 },
    rounds: numberList,
    ratios: { type: 'array', items: ratioSchema },
    details: { type: 'object', additionalProperties: { type: ['number', 'string'] } },
    flags: stringList,
  },
  ['key', 'runtime', 'rme', 'samples', 'rounds'],
)

/** JSON Schema (draft-07, Ajv's default) of a results file; `compare` refuses anything else. */
export const RESULTS_SCHEMA = record({
  format: { const: RESULTS_FORMAT },
  environment: record(
    {
      date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T' },
      commit: string,
      dirty: { type: 'boolean' },
      cpu: string,
      cores: { type: 'integer', minimum: 1 },
      os: string,
      arch: string,
      runtime: string,
      loadAverage: numberList,
      threadpool: string,
      mode: { enum: ['quick', 'full'] },
      packages: { type: 'object', additionalProperties: string },
      runtimes: { type: 'array', items: record({ id: string, name: string, version: string }) },
    },
    ['runtimes'],
  ),
  run: record({
    command: stringList,
    suites: stringList,
    filter: { type: ['string', 'null'] },
    candidateFiles: stringList,
    seed: { type: 'integer' },
    loadAverageAtEnd: numberList,
  }),
  suites: {
    type: 'array',
    items: record(
      { name: string, description: string, method: string, notes: stringList, rows: { type: 'array', items: rowSchema } },
      ['method'],
    ),
  },
  skipped: { type: 'array', items: record({ name: string, reason: string }) },
})

// Ajv ships CommonJS with `exports.default`; under NodeNext the class is that property.
const ajv = new AjvModule.default({ allErrors: true, strict: true, allowUnionTypes: true })
const validate = ajv.compile(RESULTS_SCHEMA)

/** The schema's complaints about `data`, empty when it is a valid results file. */
export function schemaErrors(data: unknown): string[] {
  if (validate(data)) return []
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`)
}

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
 * not a results file of this format, or holding more than MAX_ROUNDS_READ rounds. The CLI exits 3 on it,
 * never 1, which says "regression".
 */
export class UnreadableResultsError extends InvalidOptionError {}

/** Every per-round value a results file holds: the rows' own rounds and each ratio's. */
const roundsIn = (file: ResultsFile) =>
  file.suites
    .flatMap((suite) => suite.rows)
    .flatMap((row) => [row.rounds ?? [], ...row.ratios.map((q) => q.rounds)])
    .reduce((count, rounds) => count + rounds.length, 0)

/**
 * Reads and validates a results file: a regular file (never through a symbolic link, never a FIFO:
 * `readRegularFile`) within MAX_RESULTS_BYTES and MAX_ROUNDS_READ; anything else is an
 * UnreadableResultsError naming the problem.
 */
export function readResults(file: string): ResultsFile {
  let data: unknown
  try {
    data = JSON.parse(readRegularFile(file, MAX_RESULTS_BYTES))
  } catch (error) {
    throw new UnreadableResultsError(`${file}: not a readable JSON file (${unreadableReason(error)})`)
  }
  const format = (data as { format?: unknown } | null)?.format
  if (typeof format === 'string' && format.startsWith('authlab-bench/') && format !== RESULTS_FORMAT) {
    throw new UnreadableResultsError(
      `${file}: written as ${format}, this is ${RESULTS_FORMAT}: it has no per-round ratios to compare; re-run the bench`,
    )
  }
  const errors = schemaErrors(data)
  if (errors.length > 0) {
    throw new UnreadableResultsError(
      `${file}: not an authlab-bench results file: ${errors.slice(0, 5).join('; ')}`,
    )
  }
  const rounds = roundsIn(data as ResultsFile)
  if (rounds > MAX_ROUNDS_READ)
    throw new UnreadableResultsError(
      `${file}: holds ${rounds} rounds, more than the ${MAX_ROUNDS_READ} read from one results file`,
    )
  return rejudged(data as ResultsFile)
}

/** A results file with every ratio judged by the current rule from its own rounds (src/measure/verdict.ts). */
export function rejudged(file: ResultsFile): ResultsFile {
  return {
    ...file,
    suites: file.suites.map((suite) => ({
      ...suite,
      rows: suite.rows.map((row) => ({ ...row, ratios: row.ratios.map(rejudge) })),
    })),
  }
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
