import { readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { resultsStem, runBench } from '../src/commands/run-bench.js'
import { runRounds } from '../src/harness/rounds.js'
import { type AnySuite, defineSuite } from '../src/harness/suite.js'
import { schemaErrors } from '../src/model/schema.js'
import { readResults } from '../src/stats/decide.js'
import { benchOptions, syntheticResults, tempDir, tempWorkspace, tinySuites } from './fixtures.js'

describe('results file', () => {
  test('a real run over a temporary workspace writes JSON that matches the schema, plus Markdown, SVG and HTML', async () => {
    const root = tempWorkspace()
    const out = tempDir()
    let printed = ''
    const { results, files } = await runBench(
      benchOptions(root, await tinySuites(['ids']), out, {
        command: ['authlab-bench', '--suite', 'ids'],
        seed: 7,
        toolVersions: { tinybench: 'test' },
        stdout: (text) => {
          printed += text
        },
      }),
    )
    const names = files.map((f) => f.slice(out.length + 1).replace(/^.*Z-\w+/, '<stem>'))
    expect(names).toEqual([
      '<stem>.json',
      '<stem>-ids-speed-and-heap.svg',
      '<stem>-ids-ids-s.svg',
      '<stem>.md',
      '<stem>.html',
    ])
    // The Markdown links every chart written, and the HTML report inlines the same charts.
    const markdown = readFileSync(files[3] ?? '', 'utf8')
    for (const svg of files.filter((f) => f.endsWith('.svg'))) expect(markdown).toContain(basename(svg))
    const html = readFileSync(files[4] ?? '', 'utf8')
    expect(html.split('<figure class="chart"').length - 1).toBe(2)
    const json = JSON.parse(readFileSync(files[0] ?? '', 'utf8'))
    expect(schemaErrors(json)).toEqual([])
    expect(json).toEqual(JSON.parse(JSON.stringify(results)))
    // The temporary package, the baselines and ceilings, and the unbuilt package recorded as skipped.
    expect(results.suites[0]?.rows.map((r) => r.candidate)).toEqual([
      'ref:randomUUID',
      'ref:randomUUIDv7',
      'ref:flat-string',
      'ref:counter',
      'ref:express-session',
      'ref:fastify-session',
      'ref:better-auth',
      'ref:hono-session',
      '@tmp/id-temporary',
      'ref:randomUUID (A/A)',
    ])
    // Each candidate was measured in its own process: the temporary package's child found it by its source.
    expect(results.suites[0]?.rows.find((r) => r.candidate === '@tmp/id-temporary')?.rounds).toHaveLength(1)
    // One round is fewer than five: no ratio is printed as a number.
    expect(results.suites[0]?.rows.flatMap((r) => r.ratios.map((q) => q.verdict))).not.toContain('different')
    expect(results.run).toMatchObject({ command: ['authlab-bench', '--suite', 'ids'], seed: 7, filter: null })
    expect(results.skipped).toEqual([
      { name: '@tmp/hash-unbuilt', reason: expect.stringMatching(/^not built/) },
    ])
    expect(results.environment.packages).toMatchObject({ '@tmp/id-temporary': '1.2.3', tinybench: 'test' })
    expect(results.environment.cores).toBeGreaterThan(0)
    expect(printed).toContain('temporary counter')
    // Seven measuring processes: seconds on a quiet box, a minute or more when the shared box is saturated.
  }, 240_000)
})

describe('the suites of a run, in order', () => {
  test('a suite that spreads its rounds runs the suites after it halfway through, and keeps its place in the results', async () => {
    const events: string[] = []
    const suite = (name: string, spreadsRounds = false): AnySuite =>
      defineSuite({
        name,
        order: 0,
        description: name,
        baseline: 'none',
        budget: { quick: { rounds: 4 }, full: { rounds: 4 } },
        method: () => `${name} method`,
        spreadsRounds,
        async run(_, ctx) {
          events.push(`${name}:${ctx.interlude ? 'interlude' : 'none'}`)
          await runRounds({
            candidates: [name],
            budget: { rounds: 4 },
            seed: 1,
            measure: async (_c, round) => events.push(`${name}${round}`),
            onError: () => {},
            interlude: ctx.interlude,
          })
          return { rows: [], notes: [] }
        },
      })
    const { results } = await runBench(
      benchOptions(tempWorkspace(), [suite('a', true), suite('b'), suite('c', true)], tempDir()),
    )
    // The last suite has none after it, so no interlude; every suite ran once.
    expect(events).toEqual([
      'a:interlude',
      'a0',
      'a1',
      'b:none',
      'b0',
      'b1',
      'b2',
      'b3',
      'c:none',
      'c0',
      'c1',
      'c2',
      'c3',
      'a2',
      'a3',
    ])
    expect(results.suites.map((s) => s.name)).toEqual(['a', 'b', 'c'])
  })
})

describe('results files read back', () => {
  test('the synthetic fixture is valid, and each kind of damage is named', () => {
    const good = syntheticResults()
    expect(schemaErrors(good)).toEqual([])
    expect(schemaErrors({ ...good, format: 'other/1' })).toEqual([expect.stringContaining('/format')])
    const { run, ...withoutRun } = good
    expect(schemaErrors(withoutRun)).toEqual([expect.stringContaining("must have required property 'run'")])
    expect(run.seed).toBe(1)
    const { environment, ...withoutEnvironment } = good
    expect(schemaErrors(withoutEnvironment)).toEqual([
      expect.stringContaining("must have required property 'environment'"),
    ])
    const badRow = structuredClone(good) as unknown as { suites: { rows: Record<string, unknown>[] }[] }
    const row = badRow.suites[0]?.rows[0]
    if (row) row.value = 'fast'
    expect(schemaErrors(badRow)).toEqual([expect.stringContaining('/suites/0/rows/0/value must be number')])
    expect(environment.cores).toBe(2)
  })

  test('readResults refuses foreign or broken files with a typed error', () => {
    const dir = tempDir()
    const broken = join(dir, 'broken.json')
    writeFileSync(broken, '{ not json')
    expect(() => readResults(broken)).toThrow(expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_OPTION' }))
    const foreign = join(dir, 'foreign.json')
    writeFileSync(foreign, JSON.stringify({ hello: 'world' }))
    expect(() => readResults(foreign)).toThrow(/not an authlab-bench results file/)
    expect(() => readResults(join(dir, 'missing.json'))).toThrow(/not a readable JSON file/)
    const older = join(dir, 'older.json')
    writeFileSync(older, JSON.stringify({ format: 'authlab-bench/1' }))
    expect(() => readResults(older)).toThrow(/no per-round ratios to compare; re-run the bench/)
  })

  test('file names sort by date and name the commit', () => {
    expect(resultsStem('2026-11-30T10:15:02.123Z', '783aff9c0ffee')).toBe('2026-11-30T101502Z-783aff9')
  })
})
