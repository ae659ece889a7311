import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import type { Ratio, ResultsFile } from '../src/model/types.js'
import { alignedTable } from '../src/report/markdown.js'
import { regenerate } from '../src/report/readme.js'
import { figureBlocks } from '../src/report/readme-blocks.js'
import { readResults } from '../src/stats/decide.js'
import { ratioOf, reportOptions, roundsAround, syntheticResults } from './fixtures.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const RESULTS = join(ROOT, 'benchmarks', 'results')
const read = (file: string) => readResults(join(ROOT, file))
const OPTIONS = await reportOptions()
/** A README regenerated as `npm run figures` does, with the suites' views. */
const regen = (
  text: string,
  readmePath: string,
  from: (file: string) => ResultsFile,
  newer?: readonly string[],
) => regenerate(text, { ...OPTIONS, readmePath, root: ROOT, read: from, ...(newer ? { from: newer } : {}) })

/** The READMEs with figures blocks: the repository's and any workspace package's. */
function readmes(): string[] {
  const inPackages = ['packages', 'apps', 'tools'].flatMap((dir) =>
    readdirSync(join(ROOT, dir)).map((name) => join(ROOT, dir, name, 'README.md')),
  )
  return [join(ROOT, 'README.md'), join(ROOT, 'benchmarks', 'README.md'), ...inPackages]
    .filter(existsSync)
    .filter((file) => figureBlocks(readFileSync(file, 'utf8')).length > 0)
}

describe('README figures are the results files they name', () => {
  test('the repository README has a generated figures section', () => {
    const blocks = figureBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'))
    expect(blocks.length).toBeGreaterThan(0)
    for (const { files } of blocks)
      for (const file of files) expect(file).toMatch(/^benchmarks\/results\/.+\.json$/)
  })

  test.each(readmes().map((file) => [file.slice(ROOT.length), file]))(
    '%s agrees with its results files (npm run figures)',
    (_, file) => {
      const text = readFileSync(file, 'utf8')
      expect(regen(text, file, read)).toBe(text)
    },
  )
})

describe('generation', () => {
  const readme = (candidate = '') =>
    `# x\n\n## Latest figures\n\n<!-- figures from benchmarks/results/run.json${candidate} -->\nstale\n<!-- /figures -->\n\nafter\n`
  const results = syntheticResults()
  const reading = (r: ResultsFile) => (file: string) => {
    expect(file).toBe('benchmarks/results/run.json')
    return r
  }

  test('a block is rebuilt from its file, the text around it kept; a changed figure changes the README', () => {
    const once = regen(readme(), join(ROOT, 'README.md'), reading(results))
    expect(once).toMatch(
      /^# x\n\n## Latest figures\n\n<!-- figures from benchmarks\/results\/run.json -->\n\nFrom /,
    )
    expect(once).toMatch(/<!-- \/figures -->\n\nafter\n$/)
    expect(once).toContain('| authlab fast \\<\\&\\>')
    expect(once).toContain('2.50× [')
    // Idempotent: what the consistency test relies on.
    expect(regen(once, join(ROOT, 'README.md'), reading(results))).toBe(once)
    const changed = structuredClone(results)
    const fast = changed.suites[0]?.rows[1] as { value: number }
    fast.value = 9_000_000
    expect(regen(once, join(ROOT, 'README.md'), reading(changed))).not.toBe(once)
  })

  test('a package README gets its candidate’s rows, linked to the full table', () => {
    const text = regen(
      readme(' candidate @authlab/id-fast'),
      join(ROOT, 'packages/id-fast/README.md'),
      reading(results),
    )
    expect(text).toContain('[all candidates](../../benchmarks/README.md#latest-figures)')
    // The anchor is a heading of the file it points to (GitHub's slug: lower case, spaces to hyphens).
    const headings = readFileSync(join(ROOT, 'benchmarks', 'README.md'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('#'))
      .map((line) =>
        line
          .replace(/^#+\s*/, '')
          .toLowerCase()
          .replace(/\s+/g, '-'),
      )
    expect(headings).toContain('latest-figures')
    expect(text).toContain('(../../benchmarks/results/run.json)')
    const rows = text.split('\n').filter((l) => l.startsWith('| ids'))
    expect(rows).toHaveLength(
      (results.suites[0]?.rows ?? []).filter((r) => r.candidate === '@authlab/id-fast').length,
    )
  })

  test('tables are laid out as the formatter lays them out: padded cells, aligned rule', () => {
    expect(alignedTable(['a', 'bb'], [['ccc', '1']], (i) => i === 1)).toEqual([
      '| a   |  bb |',
      '| --- | --: |',
      '| ccc |   1 |',
    ])
  })
})

describe('--from moves blocks to newer runs', () => {
  // Files that exist in the repository; what they hold is what `read` says.
  const [older, newer] = readdirSync(RESULTS)
    .filter((f) => f.endsWith('.json'))
    .slice(0, 2)
    .map((f) => `benchmarks/results/${f}`)
  const on = (runtime: string): ResultsFile => {
    const run = syntheticResults()
    return { ...run, environment: { ...run.environment, runtime } }
  }
  const moved = (olderRuntime: string, newerRuntime: string) => {
    const runs = new Map([
      [older, on(olderRuntime)],
      [newer, on(newerRuntime)],
    ])
    const readme = `<!-- figures from ${older} findings -->\n<!-- /figures -->\n`
    const text = regen(readme, join(ROOT, 'README.md'), (f) => runs.get(f) as ResultsFile, [newer as string])
    return text.startsWith(`<!-- figures from ${newer} findings -->`)
  }

  test('a block of the same runtime major version moves; a Node 24 block stays when Node 20 runs arrive', () => {
    expect(moved('node v20.20.0', 'node v20.20.2')).toBe(true)
    expect(moved('node v24.22.3', 'node v20.20.2')).toBe(false)
  })

  test('a block citing several kinds of run moves each by its own kind', () => {
    // Six files that exist; what each holds is the synthetic run `read` gives for it.
    const [oldRun, oldHttp, oldAcross, newRun1, newRun2, newAcross] = readdirSync(RESULTS)
      .filter((f) => f.endsWith('.json'))
      .slice(0, 6)
      .map((f) => `benchmarks/results/${f}`) as string[]
    const base = syntheticResults()
    const kind = (suites: string[], across = false): ResultsFile => ({
      ...base,
      run: { ...base.run, suites },
      environment: {
        ...base.environment,
        ...(across ? { runtimes: [{ id: 'workerd', name: 'workerd', version: '2026-11-23' }] } : {}),
      },
    })
    const runs = new Map<string, ResultsFile>([
      [oldRun as string, kind(['ids', 'hash'])],
      [oldHttp as string, kind(['http'])],
      [oldAcross as string, kind(['ids', 'hash'], true)],
      [newRun1 as string, kind(['ids', 'hash'])],
      [newRun2 as string, kind(['ids', 'hash'])],
      [newAcross as string, kind(['hash', 'stretch'], true)],
    ])
    const files = (named: string[], from: string[]) => {
      const readme = `<!-- figures from ${named.join(',')} defaults -->\n<!-- /figures -->\n`
      const text = regen(readme, join(ROOT, 'README.md'), (f) => runs.get(f) as ResultsFile, from)
      return figureBlocks(text)[0]?.files
    }
    expect(
      files([oldRun, oldHttp, oldAcross] as string[], [newRun1, newRun2, newAcross] as string[]),
    ).toEqual([newRun1, newRun2, oldHttp, newAcross])
    // Default runs alone leave a cross-runtime block where it was.
    expect(files([oldAcross] as string[], [newRun1, newRun2] as string[])).toEqual([oldAcross])
  })
})

describe('a block over several consecutive runs', () => {
  /** The synthetic run with id-fast's first ratio set to `value` (decided unless said otherwise). */
  const runWith = (value: number, verdict: Ratio['verdict'] = 'better'): ResultsFile => {
    const run = syntheticResults()
    const fast = run.suites[0]?.rows[1] as unknown as { ratios: Ratio[] }
    fast.ratios = [{ ...(fast.ratios[0] as Ratio), value, low: value * 0.95, high: value * 1.05, verdict }]
    return run
  }
  const fastLine = (runs: readonly ResultsFile[]) => {
    const files = runs.map((_, i) => `benchmarks/results/run${i}.json`)
    const readme = `<!-- figures from ${files.join(',')} -->\n<!-- /figures -->\n`
    const text = regen(readme, join(ROOT, 'README.md'), (f) => runs[files.indexOf(f)] as ResultsFile)
    expect(text).toContain(`<!-- figures from ${files.join(',')} -->`)
    return text.split('\n').find((l) => l.startsWith('| authlab fast')) ?? ''
  }

  test('every run reached the same verdict: the latest run’s magnitude and interval, and that verdict', () => {
    expect(fastLine([runWith(2.4), runWith(2.5), runWith(2.6)])).toMatch(
      / 2\.6× \[2\.5–2\.7\] \| better \(3 of 3 runs\) +\|/,
    )
  })

  test('runs that reached different verdicts: "varies" and the verdicts, never one of them', () => {
    expect(fastLine([runWith(2.2), runWith(0.5, 'worse'), runWith(2.6)])).toMatch(
      / varies: better, worse +\|/,
    )
  })

  test('a run that could not decide the ratio: "undecided in 1 of 3 runs"', () => {
    const line = fastLine([runWith(2.5), runWith(2.5, 'undecided'), runWith(2.5)])
    expect(line).toMatch(/ undecided in 1 of 3 runs +\|/)
  })

  test('one run alone keeps its own interval', () => {
    expect(fastLine([runWith(2.5)])).toMatch(/ 2\.5× \[2\.4–2\.6\] \| better +\|/)
  })
})

const inFastifyRatio = () => ratioOf('x', roundsAround(1.02, 0.05))
/** A run with bcryptjs ÷ native bcrypt at cost 10 (hash and verify) and bcrypt's K=2 scaling. */
const withClaims = (hash: number, verify: number): ResultsFile => {
  const run = syntheticResults()
  const base = { unit: 'CPU ms', higherIsBetter: false, details: {}, flags: [], value: 70 }
  const hashRow = (op: string, value: number) => ({
    ...base,
    suite: 'hash',
    group: `bcrypt cost 10 · ${op}`,
    key: { setting: 'bcrypt:cost=10', operation: op },
    candidate: '@authlab/hash-bcryptjs',
    label: 'bcrypt (pure JS)',
    ratios: [ratioOf({ label: 'bcrypt (native C)', against: '@authlab/hash-bcrypt' }, roundsAround(value))],
  })
  const scaling = {
    ...base,
    suite: 'concurrency',
    group: 'K=2',
    key: { setting: 'K=2', operation: 'hash' },
    candidate: '@authlab/hash-bcrypt',
    label: 'bcrypt (native C)',
    ratios: [
      ratioOf('limit', roundsAround(0.97)),
      ratioOf({ label: 'K=1 (scaling)', against: 'K=1' }, roundsAround(1.9)),
    ],
  }
  // bcryptjs on the main thread: about 1× one at a time, half of the 2-core limit.
  const flat = {
    ...scaling,
    candidate: '@authlab/hash-bcryptjs',
    label: 'bcrypt (pure JS)',
    details: { 'limit min(K, cores)': 2 },
    ratios: [ratioOf({ label: 'K=1 (scaling)', against: 'K=1' }, roundsAround(1.0))],
  }
  // The lag suite: a main-thread hasher against native and against workers, an offloading one against native.
  const lag = (candidate: string, label: string, runsOn: string, ratios: Ratio[]) => ({
    ...base,
    suite: 'lag',
    group: 'event-loop delay while hashing',
    key: { setting: 'defaults', operation: 'hash' },
    candidate,
    label,
    details: { 'runs on': runsOn },
    ratios,
  })
  const blocking = lag('@authlab/hash-wasm', 'argon2id (WASM)', 'main-thread', [
    ratioOf({ label: 'argon2id (Rust)', against: '@authlab/hash-argon2' }, roundsAround(0.02)),
    ratioOf({ label: 'argon2id (WASM) on workers', against: '@authlab/hash-worker' }, roundsAround(0.021)),
  ])
  const offloaded = lag('@authlab/hash-worker', 'argon2id (WASM) on workers', 'worker', [
    ratioOf({ label: 'argon2id (Rust)', against: '@authlab/hash-argon2' }, roundsAround(0.96)),
  ])
  // Inside @fastify/session: authlab fast about 2 % above its default, rounds ±2.5 %.
  const inFastify = {
    ...base,
    suite: 'ids-in-fastify',
    group: 'ids-in-framework · fastify',
    key: { setting: 'fastify', operation: 'request' },
    candidate: '@authlab/id-fast',
    label: 'authlab fast',
    // The suite judges this comparison at ±10 % (src/…/ids-scenario.ts), and writes so on the ratio.
    ratios: [
      ratioOf(
        {
          label: "@fastify/session's default idGenerator [ref]",
          against: 'ref:fastify-session',
          margin: 10,
        },
        roundsAround(1.02, 0.05),
      ),
    ],
  }
  const rows = [
    hashRow('hash', hash),
    hashRow('verify', verify),
    scaling,
    flat,
    blocking,
    offloaded,
    inFastify,
  ]
  const suite = {
    name: 'hash',
    description: 'd',
    method: '',
    processRounds: false,
    notes: [],
    failures: [],
    rows,
  }
  return { ...run, suites: [...run.suites, suite] }
}

describe('findings', () => {
  const findings = (runs: readonly ResultsFile[]) => {
    const files = runs.map((_, i) => `benchmarks/results/run${i}.json`)
    const readme = `<!-- figures from ${files.join(',')} findings -->\n<!-- /figures -->\n`
    return regen(readme, join(ROOT, 'README.md'), (f) => runs[files.indexOf(f)] as ResultsFile)
  }

  test('one line per claim, each part with its magnitude, interval and verdict over the runs', () => {
    const text = findings([withClaims(0.75, 0.78), withClaims(0.74, 0.8), withClaims(0.76, 0.79)])
    expect(text).toContain('findings -->')
    const bcrypt = text.split('\n').find((l) => l.startsWith('- **bcryptjs')) ?? ''
    expect(bcrypt).toMatch(
      /hash 0\.7\d× \[0\.7\d–0\.7\d\] worse \(3 of 3 runs\); verify 0\.7\d× .* worse \(3 of 3 runs\)/,
    )
    const scaling = text.split('\n').find((l) => l.startsWith('- **Hashes in parallel')) ?? ''
    expect(scaling).toMatch(
      /bcrypt \(native C\), K = 2 ÷ one at a time 1\.9\d× \[.*\] better \(3 of 3 runs\)/,
    )
    // Read against its ceiling: the same rounds divided by the limit, judged again.
    expect(scaling).toMatch(
      /bcrypt \(pure JS\), K = 2 .* as a share of the limit 2 0\.\d+× \[0\.\d+–0\.\d+\] worse/,
    )
    // A main-thread hasher against each of its baselines; the offloading one is the lag table's, not the claim's.
    const lag = text.split('\n').find((l) => l.startsWith('- **Does hashing')) ?? ''
    expect(lag).toMatch(/argon2id \(WASM\) ÷ argon2id \(Rust\) 0\.0\d+× \[.*\] worse \(3 of 3 runs\)/)
    expect(lag).toMatch(
      /argon2id \(WASM\) ÷ argon2id \(WASM\) on workers 0\.0\d+× \[.*\] worse \(3 of 3 runs\)/,
    )
    expect(lag).not.toContain('on workers ÷')
    // Undecided at the suites' ±5 %; the suite asks this one at ±10 %, and every output says so.
    expect(inFastifyRatio().verdict).toBe('undecided')
    const fastify = text.split('\n').find((l) => l.startsWith('- **Inside @fastify/session')) ?? ''
    expect(fastify).toMatch(
      /authlab fast against @fastify\/session's default 1\.0\d× \[.*\] same \(±10 %\) \(3 of 3 runs\)/,
    )
  })

  test('a claim whose runs disagree says so instead of picking one', () => {
    const text = findings([withClaims(0.75, 0.78), withClaims(1.3, 0.8)])
    expect(text).toMatch(/- \*\*bcryptjs.*hash .* varies: worse, better/)
  })
})

describe('frameworks’ defaults table', () => {
  test('each framework’s generator against authlab fast, read the other way round; no hasher says none', () => {
    const run = syntheticResults()
    const ids = run.suites[0]?.rows as unknown as Record<string, unknown>[]
    ids.push({
      ...(ids[0] as object),
      candidate: 'ref:express-session',
      label: "express-session's default genid [ref]",
      ratios: [],
    })
    const fast = ids.find((r) => r.candidate === '@authlab/id-fast') as { ratios: Ratio[] }
    fast.ratios = [
      ...fast.ratios,
      ratioOf(
        { label: "express-session's default genid [ref]", against: 'ref:express-session' },
        roundsAround(60),
      ),
    ]
    const readme = '<!-- figures from benchmarks/results/run.json defaults -->\n<!-- /figures -->\n'
    const text = regen(readme, join(ROOT, 'README.md'), () => run)
    const express = text.split('\n').find((l) => l.startsWith('| express-session; NestJS on Express ')) ?? ''
    expect(express).toMatch(/\| 0\.01\d+× \[0\.01\d+–0\.01\d+\] worse +\| none +\|/)
    expect(text).toMatch(/\| better-auth +\| ref:better-auth +\| not measured/)
  })
})
