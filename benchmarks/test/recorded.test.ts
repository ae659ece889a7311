import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { hasFlag, type ResultsFile } from '../src/model/types.js'
import { compareResults } from '../src/stats/compare.js'
import { readResults } from '../src/stats/decide.js'
import { MIN_EFFECT_PCT } from '../src/stats/verdict.js'

/**
 * Real runs on a shared 2-core box, minutes apart, of one commit (ef9b17d): the ids suite of three
 * consecutive quick runs of the default suites, then, nine minutes later, three quick `--suite ids` runs
 * with AUTHLAB_BENCH_SLOW=@authlab/id-fast (the harness calls id-fast 10 % more often than it counts; the
 * working tree held a change to compare only). And the suites whose rounds share one process (hash, lag,
 * concurrency, stretch) of three consecutive quick runs of another commit (0b93658).
 */
const RECORDED = join(import.meta.dirname, 'recorded')
/** Suites that measure their baseline twice, the second time as an A/A control. */
const SERVE_CONTROLS = ['ids', 'hash', 'concurrency', 'stretch', 'ids-in-fastify', 'http']
const published = [
  '2026-12-05T192104Z-ef9b17d',
  '2026-12-05T192453Z-ef9b17d',
  '2026-12-05T192838Z-ef9b17d',
].map((stem) => readResults(join(RECORDED, `ids-published-${stem}.json`)))
const slowed = [1, 2, 3].map((i) => readResults(join(RECORDED, `ids-id-fast-slowed-${i}.json`)))
const oneProcess = [
  '2026-12-02T183315Z-0b93658',
  '2026-12-02T183720Z-0b93658',
  '2026-12-02T184113Z-0b93658',
].map((stem) => readResults(join(RECORDED, `one-process-published-${stem}.json`)))
const options = {
  thresholdPct: MIN_EFFECT_PCT,
  alpha: 0.01,
  absolute: false,
}
const regressions = (before: readonly ResultsFile[], after: readonly ResultsFile[]) =>
  compareResults(before, after, options)
    .changes.filter((c) => c.verdict !== 'same' && c.verdict !== 'undecided')
    .map((c) => c.key)

/** A copy of `run` whose rows of this candidate have every per-round ratio multiplied by `factor`. */
function scaled(run: ResultsFile, candidate: string, factor: number): ResultsFile {
  type Mutable = { suites: { rows: { candidate: string; ratios: { rounds: number[] }[] }[] }[] }
  const copy = structuredClone(run)
  for (const s of (copy as unknown as Mutable).suites)
    for (const row of s.rows.filter((r) => r.candidate === candidate))
      for (const q of row.ratios) q.rounds = q.rounds.map((v) => v * factor)
  return copy
}
const idsOnly = (runs: typeof published) =>
  runs.map((run) => ({ ...run, suites: run.suites.filter((s) => s.name === 'ids') }))

describe('compare on recorded real runs', () => {
  test('any two runs of the same commit, one against one: no regression in the ids suite', () => {
    for (const [i, j] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ] as const) {
      // The hash and concurrency suites raise false alarms one run against one (see benchmarks/README.md).
      const [before, after] = [idsOnly(published.slice(i, i + 1)), idsOnly(published.slice(j, j + 1))]
      expect(compareResults(before, after, options).changes.length).toBeGreaterThan(10)
      expect(regressions(before, after)).toEqual([])
      expect(regressions(after, before)).toEqual([])
    }
  })

  test('id-fast doing 10 % more work: three runs against three find it, and only it', () => {
    const found = regressions(idsOnly(published), slowed)
    expect(found).toEqual(['ids · defaults · generate · @authlab/id-fast'])
  })

  test('one slowed run against one published run raises no false alarm on another row', () => {
    for (const run of slowed)
      for (const key of regressions(idsOnly(published.slice(2)), [run]))
        expect(key).toBe('ids · defaults · generate · @authlab/id-fast')
  })

  test('suites whose rounds share one process: one run against one is undecided, never a regression', () => {
    for (const [i, j] of [
      [0, 1],
      [0, 2],
      [1, 2],
      [1, 0],
      [2, 0],
      [2, 1],
    ] as const) {
      const { changes } = compareResults(
        [oneProcess[i] as ResultsFile],
        [oneProcess[j] as ResultsFile],
        options,
      )
      expect(changes.length).toBeGreaterThan(40)
      expect(changes.every((c) => c.verdict === 'undecided')).toBe(true)
    }
  })

  test('suites whose rounds share one process: three runs against the same three raise no alarm', () => {
    expect(regressions(oneProcess, oneProcess)).toEqual([])
    expect(regressions(oneProcess.slice(0, 2), oneProcess.slice(1))).toEqual([])
    expect(regressions(oneProcess.slice(1), oneProcess.slice(0, 2))).toEqual([])
  })

  test('suites whose rounds share one process: a 20 % slower row in every after run is found two against two', () => {
    const row = '@authlab/stretch-onepw+@authlab/hash-wasm'
    const after = oneProcess.slice(1).map((run) => scaled(run, row, 0.8))
    const found = regressions(oneProcess.slice(0, 2), after)
    expect(found.length).toBeGreaterThan(0)
    for (const key of found) expect(key).toContain(row)
  })

  test('every suite that serves an A/A control has one, and none reads better or worse, in any run the READMEs cite', () => {
    const results = join(import.meta.dirname, '..', 'results')
    const cited = readdirSync(results).filter((f) => f.endsWith('.json'))
    expect(cited.length).toBeGreaterThanOrEqual(3)
    for (const run of cited.map((f) => readResults(join(results, f)))) {
      const controls = run.suites.flatMap((s) => s.rows).filter((r) => hasFlag(r, 'control'))
      // Every suite that compares candidates within one process or one server measures its baseline
      // twice; the lag suite and the http suite's logins (ratios to a computed limit) have none.
      for (const suite of run.suites.filter((s) => SERVE_CONTROLS.includes(s.name)))
        expect(
          suite.rows.some((r) => hasFlag(r, 'control')),
          `${suite.name}`,
        ).toBe(true)
      for (const control of controls) expect(['same', 'undecided']).toContain(control.ratios[0]?.verdict)
    }
  })
})
