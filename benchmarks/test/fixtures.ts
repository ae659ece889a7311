import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'
import type { ResultsFile } from '../src/results/results.js'
import type { Budget, Progress, Row } from '../src/types.js'

/** Tiny budgets: the pipeline runs end to end in well under a second; figures are not checked. */
export const TINY: Budget = {
  idTimeMs: 5,
  idWarmupMs: 0,
  heapIds: 2_000,
  hashTimeMs: 1,
  hashMinSamples: 2,
  allSettings: false,
  lagTimeMs: 1,
  lagMinHashes: 2,
  concurrencyTimeMs: 1,
  concurrencyCapMs: 1_000,
  stretchTimeMs: 1,
  stretchMinSamples: 2,
}

export const silentProgress = (): Progress => ({ plan() {}, step() {}, note() {} })

/** A temporary directory removed when the current test ends. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'authlab-bench-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

export function writeJson(file: string, value: unknown) {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`)
}

/** A package directory with a package.json and optionally a built ESM entry. */
export function addPackage(root: string, dir: string, pkg: Record<string, unknown>, entrySource?: string) {
  const at = join(root, 'packages', dir)
  mkdirSync(join(at, 'dist', 'esm'), { recursive: true })
  writeJson(join(at, 'package.json'), {
    version: '1.2.3',
    type: 'module',
    exports: { '.': { import: { default: './dist/esm/index.js' } } },
    ...pkg,
  })
  if (entrySource !== undefined) writeFileSync(join(at, 'dist', 'esm', 'index.js'), entrySource)
}

/**
 * A throwaway workspace shaped like the repository: a temporary ID strategy package (built), an unbuilt
 * hash package, and a package without `authlab` metadata that discovery must ignore.
 */
export function tempWorkspace(): string {
  const root = tempDir()
  writeJson(join(root, 'package.json'), { name: 'tmp-root', private: true, workspaces: ['packages/*'] })
  addPackage(
    root,
    'id-temporary',
    { name: '@tmp/id-temporary', authlab: { kind: 'id' } },
    `let n = 0
export function createIdGenerator() {
  const generate = () => 'tmp' + String(n++).padStart(29, '0')
  generate.info = { name: '@tmp/id-temporary', displayName: 'temporary counter', length: 32 }
  return generate
}
`,
  )
  addPackage(root, 'hash-unbuilt', { name: '@tmp/hash-unbuilt', authlab: { kind: 'hash' } })
  addPackage(root, 'not-a-strategy', { name: '@tmp/not-a-strategy' }, 'export const x = 1\n')
  return root
}

function row(overrides: Partial<Row> & Pick<Row, 'candidate' | 'label' | 'value'>): Row {
  return {
    suite: 'ids',
    group: 'IDs/s',
    unit: 'IDs/s',
    higherIsBetter: true,
    ratios: [],
    details: {},
    flags: [],
    ...overrides,
  }
}

/** A fixed results file (no clock, no machine): the reporters' golden files are rendered from it. */
export function syntheticResults(): ResultsFile {
  return {
    format: 'authlab-bench/1',
    environment: {
      date: '2026-01-02T03:04:05.000Z',
      commit: '0123456789abcdef0123456789abcdef01234567',
      dirty: false,
      cpu: 'Synthetic CPU',
      cores: 2,
      os: 'Linux 6.0',
      arch: 'x64',
      runtime: 'node v20.20.0',
      loadAverage: [0.1, 0.2, 0.3],
      threadpool: 'UV_THREADPOOL_SIZE unset (libuv default 4)',
      mode: 'quick',
      packages: { '@authlab/id-fast': '0.1.0', tinybench: '6.2.5' },
    },
    suites: [
      {
        name: 'ids',
        description: 'Synthetic IDs/s.',
        notes: ['Each sample times 1000 IDs.'],
        rows: [
          row({
            candidate: 'ref:randomUUID',
            label: 'crypto.randomUUID() [ref]',
            value: 4_000_000,
            rme: 2,
            samples: 500,
            ratios: [{ baseline: 'crypto.randomUUID() [ref]', value: 1, rme: 0 }],
            details: { 'ns/ID': 250 },
            flags: ['baseline'],
          }),
          row({
            candidate: '@authlab/id-fast',
            label: 'authlab fast <&>',
            value: 10_000_000,
            rme: 3,
            samples: 900,
            ratios: [{ baseline: 'crypto.randomUUID() [ref]', value: 2.5, rme: 3.6 }],
            details: { 'ns/ID': 100 },
          }),
          row({
            candidate: '@authlab/id-random-int',
            label: 'randomInt | per char',
            value: 300_000,
            rme: 25,
            samples: 40,
            ratios: [{ baseline: 'crypto.randomUUID() [ref]', value: 0.075, rme: 25.1 }],
            details: { 'ns/ID': 3333.3 },
            flags: ['noisy: rme 25.0% > 10%'],
          }),
        ],
      },
      {
        name: 'lag',
        description: 'Synthetic event-loop delay.',
        notes: [],
        rows: [
          row({
            suite: 'lag',
            group: 'delay',
            candidate: 'a',
            label: 'threadpool hasher',
            value: 1.5,
            unit: 'ms max delay',
            higherIsBetter: false,
            details: { 'ticks/hash': 60 },
          }),
          row({
            suite: 'lag',
            group: 'delay',
            candidate: 'b',
            label: 'main-thread hasher',
            value: 75,
            unit: 'ms max delay',
            higherIsBetter: false,
            details: { 'ticks/hash': 1 },
          }),
        ],
      },
    ],
    skipped: [{ name: '@authlab/hash-unbuilt', reason: 'not built' }],
  }
}

/** The synthetic results with id-fast's IDs/s (and optionally its ratio) replaced: one side of a comparison. */
export function withIdsValue(
  value: number,
  rme: number,
  ratio?: { value: number; rme: number },
): ResultsFile {
  const results = structuredClone(syntheticResults())
  const rows = results.suites[0]?.rows as Row[]
  const fast = rows[1] as Row
  const ratios = ratio ? [{ baseline: 'crypto.randomUUID() [ref]', ...ratio }] : fast.ratios
  rows[1] = { ...fast, value, rme, ratios }
  return results
}

/** Writes a baseline (id-fast at 10 M IDs/s ± 3 %, 2.5× ± 3.6 % randomUUID) and `after` to two files for `compare`. */
export function writeResultsPair(after: ResultsFile): [string, string] {
  const dir = tempDir()
  const [a, b] = [join(dir, 'a.json'), join(dir, 'b.json')]
  writeJson(a, withIdsValue(10_000_000, 3))
  writeJson(b, after)
  return [a, b]
}
