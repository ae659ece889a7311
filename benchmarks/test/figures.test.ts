import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { alignedTable, figureBlocks, regenerate } from '../src/report/figures.js'
import { type ResultsFile, readResults } from '../src/results/results.js'
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
    for (const { file } of blocks) expect(file).toMatch(/^benchmarks\/results\/.+\.json$/)
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
    expect(once).toContain('| authlab fast &lt;&>')
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
