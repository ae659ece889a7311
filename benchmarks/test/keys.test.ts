import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { CLAIMS } from '../src/advice/claims.js'
import { keyText, settingKey } from '../src/model/keys.js'
import type { ResultsFile } from '../src/model/types.js'
import { regenerate } from '../src/report/readme.js'
import { type FigureBlock, figureBlocks } from '../src/report/readme-blocks.js'
import { readResults } from '../src/stats/decide.js'
import { reportOptions } from './fixtures.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** Every README with figures blocks, and its blocks. */
function blocks(): { readme: string; block: FigureBlock }[] {
  const dirs = ['packages', 'apps', 'tools'].flatMap((dir) =>
    readdirSync(join(ROOT, dir)).map((name) => join(ROOT, dir, name, 'README.md')),
  )
  return [join(ROOT, 'README.md'), join(ROOT, 'benchmarks', 'README.md'), ...dirs]
    .filter(existsSync)
    .flatMap((readme) => figureBlocks(readFileSync(readme, 'utf8')).map((block) => ({ readme, block })))
}

const options = await reportOptions()

/** One block, regenerated alone from `read`, without its markers. */
function render(readme: string, block: FigureBlock, read: (file: string) => ResultsFile): string {
  const tail = block.kind ? ` ${block.kind}` : block.candidate ? ` candidate ${block.candidate}` : ''
  const text = `<!-- figures from ${block.files.join(',')}${tail} -->\n<!-- /figures -->\n`
  return regenerate(text, { ...options, readmePath: readme, root: ROOT, read })
    .split('\n')
    .filter((line) => !line.startsWith('<!--'))
    .join('\n')
    .trim()
}

const committed = (file: string) => readResults(join(ROOT, file))

describe('every README block renders from the committed runs it names', () => {
  const all = blocks()
  test('there are findings, defaults, summary and candidate blocks', () => {
    const kinds = new Set(all.map(({ block }) => block.kind ?? (block.candidate ? 'candidate' : 'summary')))
    expect([...kinds]).toEqual(
      expect.arrayContaining(['candidate', 'defaults', 'findings', 'summary', 'runtimes']),
    )
  })

  test.for(all.map((b, i) => [i, b] as const))('block %i renders something of each of its parts', ([, b]) => {
    const { readme, block } = b
    const text = render(readme, block, committed)
    const body = text.split('\n').filter((line) => line.startsWith('|') || line.startsWith('- **'))
    expect(body.length).toBeGreaterThan(0)
    if (block.kind === 'findings') {
      const latest = committed(block.files.at(-1) as string)
      const rows = latest.suites.flatMap((s) => s.rows)
      // A run of some suites (a lag-only run) answers only their claims; a claim with a row here must render.
      let rendered = 0
      for (const claim of CLAIMS) {
        const parts = claim.parts(rows, latest.environment.cores).filter((p) => rows.some(p.pick))
        if (parts.length === 0) continue
        const line = body.find((l) => l.startsWith(`- **${claim.title}**`))
        expect(line, claim.title).toBeDefined()
        for (const part of parts) expect(line, `${claim.title}: ${part.label}`).toContain(`${part.label} `)
        rendered++
      }
      expect(rendered).toBeGreaterThan(0)
    }
    if (block.kind === 'defaults') expect(text).not.toContain('not measured')
  })
})

/** Every display string of a run prefixed: labels, groups and baselines; keys and baselines' ids kept. */
function relabelled(run: ResultsFile, mark: string): ResultsFile {
  return {
    ...run,
    suites: run.suites.map((suite) => ({
      ...suite,
      rows: suite.rows.map((row) => ({
        ...row,
        group: `${mark}${row.group}`,
        label: `${mark}${row.label}`,
        ratios: row.ratios.map((q) => ({ ...q, baseline: `${mark}${q.baseline}` })),
      })),
    })),
  }
}

describe('display labels are not keys', () => {
  test.for(blocks().map((b, i) => [i, b] as const))(
    'block %i selects the same rows when every label, group and baseline is renamed',
    ([, { readme, block }]) => {
      const keyed = (file: string) => relabelled(committed(file), '')
      const renamed = (file: string) => relabelled(committed(file), '⟦renamed⟧ ')
      // Table columns are padded to their widest cell, which the longer labels widen; a chart is shown
      // where its SVG, named when the run was written, is on disk, which no renamed run's is.
      const unpadded = (text: string) =>
        text
          .split('\n')
          .filter((line) => !line.startsWith('!['))
          .join('\n')
          .replace(/\n{3,}/g, '\n\n')
          .replace(/ +/g, ' ')
          .replace(/-{3,}/g, '---')
      const before = unpadded(render(readme, block, keyed))
      const after = unpadded(render(readme, block, renamed).replaceAll('⟦renamed⟧ ', ''))
      expect(after).toBe(before)
    },
  )

  test('a keyed row keeps its key text whatever its labels say', () => {
    const [run] = [committed(blocks()[0]?.block.files[0] as string)]
    const row = run.suites
      .flatMap((s) => s.rows)
      .find((r) => r.suite === 'hash') as ResultsFile['suites'][0]['rows'][0]
    const renamed = relabelled(
      { ...run, suites: [{ ...(run.suites[0] as ResultsFile['suites'][0]), rows: [row] }] },
      'x ',
    )
    expect(keyText(renamed.suites[0]?.rows[0] as typeof row)).toBe(keyText(row))
  })

  test('a setting is the algorithm at its parameters', () => {
    expect(settingKey('bcrypt', { cost: 10 })).toBe('bcrypt:cost=10')
    expect(settingKey('scrypt', { ln: 14, r: 16, p: 1 })).toBe('scrypt:ln=14,r=16,p=1')
  })
})

describe('every committed results file, read through the one migration of older files', () => {
  const files = readdirSync(join(ROOT, 'benchmarks', 'results')).filter((f) => f.endsWith('.json'))
  const NOT_A_ROW = ['K=1', 'K=1:first', 'limit']

  test.for(files)('%s: every row has its own key, every ratio the id of what it divides by', (file) => {
    const run = committed(`benchmarks/results/${file}`)
    const rows = run.suites.flatMap((s) => s.rows)
    expect(new Set(rows.map(keyText)).size).toBe(rows.length)
    for (const row of rows)
      for (const q of row.ratios) {
        const peers = rows.filter((r) => r.suite === row.suite && r.runtime === row.runtime)
        expect(
          NOT_A_ROW.includes(q.against) || peers.some((r) => r.candidate === q.against),
          `${keyText(row)} ÷ ${q.against}`,
        ).toBe(true)
      }
  })
})

test('the claims name the stretch suite’s settings as the suite writes them', async () => {
  const { ONEPW } = await import('../src/advice/claims.js')
  const { STRETCH_SETTINGS } = await import('../src/suites/stretch/jobs.js')
  expect(ONEPW).toEqual({ pbkdf2: STRETCH_SETTINGS.pbkdf2, chain: STRETCH_SETTINGS.chain })
})
