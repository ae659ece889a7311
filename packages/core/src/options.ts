import { InvalidOptionError } from './errors.js'

/**
 * The value an option takes. `integer` and `number` refuse strings ('600000'), NaN and ±Infinity;
 * `integer` also refuses fractions. Bounds come from `min`/`max`.
 */
export type OptionType = 'integer' | 'number' | 'boolean' | 'string' | 'object' | 'function'

export interface OptionSpec {
  readonly type: OptionType
  /** Smallest accepted number (inclusive). */
  readonly min?: number
  /** Largest accepted number (inclusive). */
  readonly max?: number
  /** The only accepted strings. */
  readonly values?: readonly string[]
  /** For `object`: the keys the nested object may have, checked the same way. */
  readonly keys?: OptionSpecs
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>

/** Other libraries' names for an option, mapped to ours: `{ saltRounds: 'cost' }`. */
export type OptionAliases = Readonly<Record<string, string>>

/**
 * Checks a constructor's options before anything else reads them: an object (or undefined), only
 * known keys, each of the declared type and range. A typo or another library's name would otherwise
 * be ignored and the defaults used, so a user who thinks they raised the cost has not. Returns the
 * options without undefined values, ready to spread over defaults.
 */
export function checkOptions(
  owner: string,
  options: unknown,
  specs: OptionSpecs,
  aliases: OptionAliases = {},
): Record<string, unknown> {
  if (options === undefined) return {}
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new InvalidOptionError(
      `${owner}: options must be an object, got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options}`,
    )
  }
  const checked: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(options)) {
    const spec = specs[key]
    if (!spec) throw unknownOption(owner, key, specs, aliases)
    if (value === undefined) continue
    checkValue(`${owner}: option "${key}"`, value, spec, aliases)
    checked[key] = value
  }
  return checked
}

function checkValue(what: string, value: unknown, spec: OptionSpec, aliases: OptionAliases): void {
  const actual = describeValue(value)
  switch (spec.type) {
    case 'integer':
    case 'number': {
      const whole = spec.type === 'integer'
      if (typeof value !== 'number' || !Number.isFinite(value) || (whole && !Number.isSafeInteger(value))) {
        throw new InvalidOptionError(
          `${what} must be ${whole ? 'an integer' : 'a finite number'}, got ${actual}`,
        )
      }
      if ((spec.min !== undefined && value < spec.min) || (spec.max !== undefined && value > spec.max)) {
        throw new InvalidOptionError(`${what} must be ${rangeText(spec)}, got ${actual}`)
      }
      return
    }
    case 'string':
      if (typeof value !== 'string' || (spec.values && !spec.values.includes(value))) {
        const expected = spec.values
          ? `one of ${spec.values.map((v) => JSON.stringify(v)).join(', ')}`
          : 'a string'
        throw new InvalidOptionError(`${what} must be ${expected}, got ${actual}`)
      }
      return
    case 'object':
      if (spec.keys) checkOptions(what, value, spec.keys, aliases)
      else if (value === null || typeof value !== 'object') {
        throw new InvalidOptionError(`${what} must be an object, got ${actual}`)
      }
      return
    default:
      if (typeof value !== spec.type)
        throw new InvalidOptionError(`${what} must be a ${spec.type}, got ${actual}`)
  }
}

function rangeText({ min, max }: OptionSpec): string {
  if (min !== undefined && max !== undefined) return `from ${min} to ${max}`
  return min !== undefined ? `≥ ${min}` : `≤ ${max}`
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`
  if (typeof value === 'number') return String(value)
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value
}

function unknownOption(owner: string, key: string, specs: OptionSpecs, aliases: OptionAliases) {
  const valid = Object.keys(specs)
  const alias = aliases[key]
  const suggestion = alias && valid.includes(alias) ? alias : closest(key, valid)
  const hint = alias
    ? ` "${key}" is another library's name: here it is "${alias}".`
    : suggestion
      ? ` Did you mean "${suggestion}"?`
      : ''
  return new InvalidOptionError(
    `${owner}: unknown option "${key}".${hint} Valid options: ${valid.join(', ') || '(none)'}`,
    undefined,
    { option: key, ...(suggestion ? { suggestion } : {}), validOptions: valid },
  )
}

/** The valid key nearest to `key` by edit distance, when near enough to be a plausible typo. */
export function closest(key: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined
  let bestDistance = Number.POSITIVE_INFINITY
  for (const candidate of candidates) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase())
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  // A third of the longer name (at least 2 edits): "thread" → "threads", "itterations" → "iterations",
  // but "cost" is not offered for "memoryCost".
  const tolerance = Math.max(2, Math.floor(Math.max(key.length, best?.length ?? 0) / 3))
  return bestDistance <= tolerance ? best : undefined
}

/** Levenshtein distance (insert, delete, substitute), two rows at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitute = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1)
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitute)
    }
    previous = current
  }
  return previous[b.length] as number
}
