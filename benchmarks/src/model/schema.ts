/**
 * JSON Schema (draft-07, Ajv's default) of a results file, of the current format and of the one before
 * it, which src/model/migrate.ts turns into the current one: `compare` and every reader refuse anything else.
 */
import AjvModule from 'ajv'

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

const FLAG_KINDS = [
  'baseline',
  'control',
  'ceiling',
  'above-limit',
  'failed',
  'no-figure',
  'marked-rounds',
  'noisy',
  'same-as-defaults',
  'shared-rounds',
  'not-paired',
  'incompatible',
  'other',
]

const flag = record(
  {
    kind: { enum: FLAG_KINDS },
    limit: number,
    low: number,
    high: number,
    reason: string,
    rounds: { type: 'integer', minimum: 0 },
    retries: { type: 'integer', minimum: 0 },
    step: string,
    text: string,
  },
  ['limit', 'low', 'high', 'reason', 'rounds', 'retries', 'step', 'text'],
)

const environment = record(
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
)

const run = record({
  command: stringList,
  suites: stringList,
  filter: { type: ['string', 'null'] },
  candidateFiles: stringList,
  seed: { type: 'integer' },
  loadAverageAtEnd: numberList,
})

function schema(version: 2 | 3) {
  const v2 = version === 2
  const ratio = record(
    {
      baseline: string,
      against: string,
      value: number,
      low: number,
      high: number,
      rounds: numberList,
      // Version 2 files may hold the earlier rule's words; every verdict is judged again when read.
      verdict: {
        enum: ['better', 'worse', 'same', 'undecided', ...(v2 ? ['different', 'no difference'] : [])],
      },
      ...(v2
        ? { withheld: string }
        : { withheld: { type: 'boolean' }, margin: { type: 'number', minimum: 0 } }),
    },
    v2 ? ['against', 'withheld'] : ['withheld', 'margin'],
  )
  const row = record(
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
      ratios: { type: 'array', items: ratio },
      details: { type: 'object', additionalProperties: { type: ['number', 'string'] } },
      flags: { type: 'array', items: v2 ? string : flag },
    },
    ['runtime', 'rme', 'samples', 'rounds', ...(v2 ? ['key'] : [])],
  )
  const suite = record(
    {
      name: string,
      description: string,
      method: string,
      ...(v2 ? {} : { processRounds: { type: 'boolean' } }),
      notes: stringList,
      ...(v2 ? {} : { failures: { type: 'array', items: record({ candidate: string, reason: string }) } }),
      rows: { type: 'array', items: row },
    },
    v2 ? ['method'] : [],
  )
  return record({
    format: { const: `authlab-bench/${version}` },
    environment,
    run,
    suites: { type: 'array', items: suite },
    skipped: { type: 'array', items: record({ name: string, reason: string }) },
  })
}

/** The current format's schema. */
export const RESULTS_SCHEMA = schema(3)

// Ajv ships CommonJS with `exports.default`; under NodeNext the class is that property.
const ajv = new AjvModule.default({ allErrors: true, strict: true, allowUnionTypes: true })
const validators = { 2: ajv.compile(schema(2)), 3: ajv.compile(RESULTS_SCHEMA) }

/** The schema's complaints about `data` as a file of `version`, empty when it is valid. */
export function schemaErrors(data: unknown, version: 2 | 3 = 3): string[] {
  const validate = validators[version]
  if (validate(data)) return []
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`)
}
