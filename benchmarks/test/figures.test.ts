import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { alignedTable, figureBlocks, regenerate } from '../src/report/figures.js'
import { type ResultsFile, readResults } from '../src/results/results.js'
import type { Ratio } from '../src/types.js'
import { syntheticResults } from './fixtures.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const read = (file: string) => readResults(join(ROOT, file))

/** The READMEs with figures blocks: the repository's and any workspace package's. */
function readmes(): string[] {
  const inPackages = ['packages', 'apps', 'tools'].flatMap((dir) =>
    readdirSync(join(ROOT, dir)).map((name) => join(ROOT, dir, name, 'README.md')),
  )
  return [join(ROOT, 'README.md'), ...inPackages]
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
      expect(regenerate(text, file, ROOT, read)).toBe(text)
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
    const once = regenerate(readme(), join(ROOT, 'README.md'), ROOT, reading(results))
    expect(once).toMatch(
      /^# x\n\n## Latest figures\n\n<!-- figures from benchmarks\/results\/run.json -->\n\nFrom /,
    )
    expect(once).toMatch(/<!-- \/figures -->\n\nafter\n$/)
    expect(once).toContain('| authlab fast \\<\\&\\>')
    expect(once).toContain('2.50 [')
    // Idempotent: what the consistency test relies on.
    expect(regenerate(once, join(ROOT, 'README.md'), ROOT, reading(results))).toBe(once)
    const changed = structuredClone(results)
    const fast = changed.suites[0]?.rows[1] as { value: number }
    fast.value = 9_000_000
    expect(regenerate(once, join(ROOT, 'README.md'), ROOT, reading(changed))).not.toBe(once)
  })

  test('a package README gets its candidate’s rows, linked to the full table', () => {
    const text = regenerate(
      readme(' candidate @authlab/id-fast'),
      join(ROOT, 'packages/id-fast/README.md'),
      ROOT,
      reading(results),
    )
    expect(text).toContain('[all candidates](../../README.md#latest-figures)')
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

describe('a block over several consecutive runs', () => {
  /** The synthetic run with id-fast's first ratio set to `value` (decided unless said otherwise). */
  const runWith = (value: number, verdict: Ratio['verdict'] = 'different'): ResultsFile => {
    const run = syntheticResults()
    const fast = run.suites[0]?.rows[1] as unknown as { ratios: Ratio[] }
    fast.ratios = [{ ...(fast.ratios[0] as Ratio), value, verdict }]
    return run
  }
  const fastLine = (runs: readonly ResultsFile[]) => {
    const files = runs.map((_, i) => `benchmarks/results/run${i}.json`)
    const readme = `<!-- figures from ${files.join(',')} -->\n<!-- /figures -->\n`
    const text = regenerate(
      readme,
      join(ROOT, 'README.md'),
      ROOT,
      (f) => runs[files.indexOf(f)] as ResultsFile,
    )
    expect(text).toContain(`<!-- figures from ${files.join(',')} -->`)
    return text.split('\n').find((l) => l.startsWith('| authlab fast')) ?? ''
  }

  test('runs within ±5 % of their median: the median and the range of the runs, and their verdict', () => {
    expect(fastLine([runWith(2.4), runWith(2.5), runWith(2.6)])).toMatch(
      / 2\.50 \(2\.40–2\.60\) \| better +\|/,
    )
  })

  test('one run farther than 5 % from the median: "varies" and the range, never a ratio', () => {
    expect(fastLine([runWith(2.2), runWith(2.5), runWith(2.6)])).toMatch(/ varies 2\.20–2\.60 \| varies +\|/)
  })

  test('a run that could not decide the ratio: "undecided in 1 of 3 runs"', () => {
    const line = fastLine([runWith(2.5), runWith(2.5, 'undecided'), runWith(2.5)])
    expect(line).toMatch(/ undecided in 1 of 3 runs \| undecided +\|/)
  })

  test('one run alone keeps its own interval', () => {
    expect(fastLine([runWith(2.5)])).toMatch(/ 2\.50 \[[\d.]+–[\d.]+\] \| better +\|/)
  })
})
