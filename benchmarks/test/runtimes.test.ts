import { resolve } from 'node:path'
import { runningRuntime } from '@authlab/workspace'
import { describe, expect, test } from 'vitest'
import type { Progress } from '../src/harness/suite.js'
import { main } from '../src/main.js'
import { schemaErrors } from '../src/model/schema.js'
import { type Flag, PER_CALL } from '../src/model/types.js'
import { mergeRuntimes, parseRuntimes, runAcrossRuntimes } from '../src/runtimes/across.js'
import type { RuntimeOutcome } from '../src/runtimes/measure.js'
import { measuredRunsOn } from '../src/runtimes/measure.js'
import { suite as idsSuite } from '../src/suites/ids/index.js'
import { tempDir } from './fixtures.js'

const ROOT = resolve(import.meta.dirname, '../..')
const quiet = (): Progress => ({ plan() {}, step() {}, note() {} })

async function cli(argv: string[]) {
  let stderr = ''
  const code = await main(argv, { stdout: () => {}, stderr: (t) => (stderr += t) })
  return { code, stderr }
}

describe('--runtime parsing', () => {
  test('takes known ids, in the order given, once each', () => {
    expect(parseRuntimes('node, bun,node')).toEqual(['node', 'bun'])
    expect(parseRuntimes(undefined)).toBeUndefined()
  })

  test('an unknown runtime or a Node-only suite is a usage error naming the choices', async () => {
    const unknown = await cli(['--runtime', 'node,netscape', '--suite', 'ids'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(
      /--runtime takes ids from node, node24, node22, bun, deno, chromium, firefox/,
    )
    const lag = await cli(['--runtime', 'node', '--suite', 'lag', '--out', tempDir()])
    expect(lag.code).toBe(2)
    expect(lag.stderr).toMatch(/suite "lag" runs on the current Node only/)
  })
})

const row = (runtime: string, candidate: string, value: number, flags: Flag[] = []) => ({
  suite: 'ids' as const,
  runtime,
  group: 'session IDs',
  key: { setting: 'defaults', operation: 'generate' },
  candidate,
  label: candidate,
  value,
  unit: 'IDs/s',
  higherIsBetter: true,
  rounds: [value * 0.9, value, value * 1.1],
  ratios: [],
  details: { 'runsOn (measured)': 'blocks the loop' },
  flags,
})

describe('merging runtimes', () => {
  const outcomes: RuntimeOutcome[] = [
    {
      id: 'node',
      ok: true,
      label: 'Node 20',
      reported: { name: 'node', version: '20.20.2' },
      rows: [row('node', 'a', 100), row('node', 'a (A/A)', 101, [{ kind: 'control' }]), row('node', 'b', 50)],
      notes: [],
    },
    { id: 'firefox', ok: false, reason: '/usr/bin/firefox-esr is missing' },
    {
      id: 'bun',
      ok: true,
      label: 'Bun 1.4.5',
      reported: { name: 'bun', version: '1.4.5' },
      rows: [row('bun', 'a', 300)],
      notes: [],
    },
  ]
  const merged = mergeRuntimes([idsSuite], outcomes)

  test('one record per suite holds every runtime’s rows; a runtime that did not start is skipped with its reason', () => {
    const ids = merged.records.find((r) => r.name === 'ids')
    expect(ids?.rows.map((r) => `${r.runtime}:${r.candidate}`)).toEqual([
      'node:a',
      'node:a (A/A)',
      'node:b',
      'bun:a',
    ])
    expect(merged.skipped).toEqual([{ name: 'runtime firefox', reason: '/usr/bin/firefox-esr is missing' }])
    expect(ids?.notes).toContain('firefox: skipped: /usr/bin/firefox-esr is missing')
    expect(merged.runtimes).toEqual([
      { id: 'node', name: 'node', version: '20.20.2' },
      { id: 'bun', name: 'bun', version: '1.4.5' },
    ])
  })

  test('the across-runtimes table sets a candidate measured in two runtimes side by side, controls left out', () => {
    const across = merged.records.find((r) => r.name === 'runtimes')
    expect(across?.rows.map((r) => [r.candidate, r.details['× vs node']])).toEqual([
      ['a@node', 1],
      ['a@bun', 3],
    ])
  })

  test('the environment names the runtime running the harness by its own version field', () => {
    expect(runningRuntime({ ...process.versions, bun: '1.4.5' })).toBe('bun 1.4.5')
    expect(runningRuntime({ ...process.versions, deno: '2.9.6' })).toBe('deno 2.9.6')
    expect(runningRuntime(process.versions)).toBe(`node ${process.version}`)
  })

  test('measured runsOn is only judged on a call long enough for a 1 ms timer', () => {
    expect(measuredRunsOn(0.1, 0.01)).toMatch(/not judged/)
    expect(measuredRunsOn(180, 200)).toBe('blocks the loop')
    expect(measuredRunsOn(2, 200)).toBe('loop free')
  })
})

// A real run at a small budget over this Node and Deno: both start, each row names the runtime that
// ran it as that runtime reports itself, and the merged file passes the results schema.
test('a small real run over node and deno merges both into one valid results file', async () => {
  const budget = { ...idsSuite.budget.quick, rounds: 2 }
  const ids = { ...idsSuite, budget: { quick: budget, full: budget } }
  const across = await runAcrossRuntimes({
    root: ROOT,
    runtimes: ['node', 'deno'],
    suites: [ids],
    mode: 'quick',
    progress: quiet,
  })
  expect(across.skipped).toEqual([])
  expect(across.runtimes.map((r) => r.name)).toEqual(['node', 'deno'])
  const rows = across.records.find((r) => r.name === 'ids')?.rows ?? []
  for (const runtime of ['node', 'deno']) {
    const own = rows.filter((r) => r.runtime === runtime)
    expect(own.map((r) => r.candidate)).toContain('ref:randomUUID')
    expect(own.every((r) => r.rounds?.length === 2 && r.value > 0)).toBe(true)
    // Per call, the median wall ms and, both runtimes reading their process's CPU, CPU ms.
    for (const r of own) {
      expect(r.details[PER_CALL.wallMs]).toBeGreaterThan(0)
      expect(r.details[PER_CALL.cpuMs]).toBeGreaterThan(0)
    }
  }
  const environment = {
    date: '2026-01-01T00:00:00Z',
    commit: 'x',
    dirty: false,
    cpu: 'x',
    cores: 2,
    os: 'x',
    arch: 'x',
  }
  const file = {
    format: 'authlab-bench/3',
    environment: {
      ...environment,
      runtime: 'node',
      loadAverage: [],
      threadpool: '',
      mode: 'quick',
      packages: {},
      runtimes: across.runtimes,
    },
    run: { command: [], suites: ['ids'], filter: null, candidateFiles: [], seed: 1, loadAverageAtEnd: [] },
    suites: across.records,
    skipped: across.skipped,
  }
  expect(schemaErrors(file)).toEqual([])
}, 120_000)
