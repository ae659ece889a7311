import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { EXIT } from '../src/main.js'
import type { ResultsFile } from '../src/model/types.js'
import { cli, syntheticResults, tempDir, writeJson } from './fixtures.js'

// Results files are untrusted input: anyone can hand one to report, compare, spread or figures.

const ESC = '\u001b'
const OSC8_LINK = `${ESC}]8;;https://evil.example/${ESC}\\click${ESC}]8;;${ESC}\\`
const CLEAR_SCREEN = `${ESC}[2J${ESC}[H`
const HTML = '<img src=x onerror=alert(1)>'
const LINK = '[login](https://evil.example/)'
const FAKE_MARKER = '<!-- /figures -->\n<!-- figures from /etc/hostname -->'

/** The synthetic run with every text a results file carries replaced by hostile ones. */
function hostile(suiteName = 'ids'): ResultsFile {
  const results = structuredClone(syntheticResults()) as unknown as {
    environment: Record<string, unknown>
    suites: {
      name: string
      description: string
      notes: string[]
      rows: { label: string; group: string; candidate: string }[]
    }[]
  }
  results.environment.cpu = `${HTML} ${CLEAR_SCREEN}`
  const [ids] = results.suites
  if (!ids) throw new Error('the synthetic run has an ids suite')
  ids.name = suiteName
  ids.description = `${HTML} ${LINK} ${FAKE_MARKER}`
  ids.notes = [`${LINK}\n## not a heading`]
  for (const row of ids.rows) {
    row.label = `${row.label} ${OSC8_LINK}\u0001\u0008 | x\ny ${HTML}`
    row.candidate = `${row.candidate}${CLEAR_SCREEN}`
  }
  return results as unknown as ResultsFile
}

/** Characters XML 1.0 does not allow (§2.2): one of them makes an SVG unreadable. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/
/** Markup that would take effect: not preceded by the backslash that makes it literal. */
const RAW_HTML = /(?<!\\)<img/
const RAW_LINK = /(?<!\\)\]\(https:\/\/evil/

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
}

describe('report', () => {
  test('a suite name with ../ writes nothing outside the results directory', async () => {
    const root = tempDir()
    const dir = join(root, 'results', 'deep')
    mkdirSync(dir, { recursive: true })
    writeJson(join(dir, 'run.json'), hostile('/../../OUTSIDE'))
    const { code } = await cli(['report', join(dir, 'run.json')])
    expect(code).toBe(EXIT.ok)
    const written = filesUnder(root)
    expect(written.filter((file) => dirname(file) !== dir)).toEqual([])
    expect(written.some((file) => file.endsWith('.svg'))).toBe(true)
  })

  test('Markdown and SVG escape what the file says; tables keep their shape', async () => {
    const dir = tempDir()
    writeJson(join(dir, 'run.json'), hostile())
    expect((await cli(['report', join(dir, 'run.json')])).code).toBe(EXIT.ok)
    const markdown = readFileSync(join(dir, 'run.md'), 'utf8')
    expect(markdown).not.toMatch(RAW_HTML)
    expect(markdown).not.toMatch(RAW_LINK)
    expect(markdown).not.toContain(ESC)
    expect(markdown).not.toMatch(/^## not a heading/m)
    // Every line of a table is a row: a newline in a label did not end it.
    const tableLines = markdown
      .split('\n')
      .filter((line, i, all) => line.startsWith('|') || all[i - 1]?.startsWith('|'))
    for (const line of tableLines.filter((l) => l !== '')) expect(line).toMatch(/^\|.*\|$/)
    const svgs = readdirSync(dir).filter((name) => name.endsWith('.svg'))
    expect(svgs.length).toBeGreaterThan(0)
    for (const name of svgs) {
      const svg = readFileSync(join(dir, name), 'utf8')
      expect(svg).not.toMatch(NOT_XML)
      expect(svg).not.toContain('<img')
    }
  })

  test('the index links a javascript: file name as a file, and lists an old file with "date": 5', async () => {
    const dir = tempDir()
    writeJson(join(dir, 'javascript:alert(document.domain).json'), syntheticResults())
    writeJson(join(dir, 'old.json'), { environment: { date: 5, commit: 7, cpu: 'Old CPU' }, suites: [{}] })
    const run = await cli(['report', dir])
    expect(run.code).toBe(EXIT.ok)
    const index = readFileSync(join(dir, 'index.html'), 'utf8')
    expect(index).not.toMatch(/href="javascript:/i)
    expect(index).toContain('href="./javascript%3Aalert%28document.domain%29.md"')
    expect(index).toContain('old.json')
  })
})

describe('report on large but valid results files', () => {
  test('2,500 rows in one group: the chart draws a bounded number of them and says so; exit 0', async () => {
    const results = syntheticResults()
    const [ids] = results.suites
    const template = ids?.rows[1] as ResultsFile['suites'][0]['rows'][0]
    const rows = Array.from({ length: 2500 }, (_, i) => ({
      ...template,
      candidate: `c${i}`,
      label: `candidate ${i}`,
      rounds: template.rounds?.slice(0, 3),
      ratios: template.ratios.map((q) => ({ ...q, rounds: q.rounds.slice(0, 3) })),
    }))
    const dir = tempDir()
    writeJson(join(dir, 'run.json'), { ...results, suites: [{ ...ids, rows }] })
    const { code, stderr } = await cli(['report', join(dir, 'run.json')])
    expect(stderr).not.toContain('internal error')
    expect(code).toBe(EXIT.ok)
    const svgs = filesUnder(dir).filter((file) => file.endsWith('.svg'))
    expect(svgs.length).toBeGreaterThan(0)
    const chart = readFileSync(svgs[0] as string, 'utf8')
    expect(chart).toMatch(/of 2,500 rows/)
    expect(readFileSync(join(dir, 'run.md'), 'utf8')).toContain('| candidate 2499 ')
  })

  test('a 300-character suite name: chart files get bounded names, every report is written; exit 0', async () => {
    const dir = tempDir()
    writeJson(join(dir, 'run.json'), hostile('x'.repeat(300)))
    const { code, stderr } = await cli(['report', join(dir, 'run.json')])
    expect(stderr).not.toContain('internal error')
    expect(code).toBe(EXIT.ok)
    const names = readdirSync(dir)
    expect(names.filter((name) => name.endsWith('.svg')).length).toBeGreaterThan(0)
    for (const name of names) expect(Buffer.byteLength(name)).toBeLessThanOrEqual(120)
    expect(names).toEqual(expect.arrayContaining(['run.md', 'run.html']))
  })
})

describe('compare, spread and errors print no terminal escape sequences', () => {
  test('labels with OSC 8 links and clear-screen sequences', async () => {
    const dir = tempDir()
    writeJson(join(dir, 'a.json'), hostile())
    writeJson(join(dir, 'b.json'), hostile())
    const compare = await cli(['compare', join(dir, 'a.json'), join(dir, 'b.json')])
    expect(compare.code).toBe(EXIT.ok)
    expect(compare.stdout).toContain('@authlab/id-fast')
    expect(compare.stdout).not.toContain(ESC)
    const spread = await cli(['spread', join(dir, 'a.json'), join(dir, 'b.json')])
    expect(spread.code).toBe(EXIT.ok)
    expect(spread.stdout).toContain('@authlab/id-fast')
    expect(spread.stdout).not.toContain(ESC)
  })

  test("a file that is not JSON: a typed error that quotes neither the file's bytes nor its escapes", async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'bad.json'), `secret-hostname-${CLEAR_SCREEN}`)
    const run = await cli(['compare', join(dir, 'bad.json'), join(dir, 'bad.json')])
    expect(run.code).toBe(EXIT.unreadable)
    expect(run.stderr).toMatch(/bad\.json: not a readable JSON file \(not valid JSON/)
    expect(run.stderr).not.toContain('secret-hostname')
    expect(run.stderr).not.toContain(ESC)
  })
})

describe('figures', () => {
  test('results text cannot inject HTML, links or a marker into a README, nor make figures read another file', async () => {
    const root = tempDir()
    mkdirSync(join(root, 'benchmarks', 'results'), { recursive: true })
    writeJson(join(root, 'benchmarks', 'results', 'run.json'), hostile())
    const readme = join(root, 'README.md')
    writeFileSync(
      readme,
      '# x\n\n<!-- figures from benchmarks/results/run.json -->\nold\n<!-- /figures -->\n',
    )
    expect((await cli(['figures'], root)).code).toBe(EXIT.ok)
    const text = readFileSync(readme, 'utf8')
    expect(text).not.toMatch(RAW_HTML)
    expect(text).not.toMatch(RAW_LINK)
    // Only the README's own two markers are markers; the file's are text (their `<` and `>` escaped).
    expect(text.match(/(?<!\\)<!-- \/?figures[^\n]*?(?<!\\)-->/g)).toHaveLength(2)
    // Idempotent: the second run reads the same one file and changes nothing.
    expect(await cli(['figures', '--check'], root)).toMatchObject({ code: EXIT.ok })
  })

  test('a marker naming a file outside the repository is refused before it is read', async () => {
    const root = tempDir()
    writeFileSync(
      join(root, 'README.md'),
      '# x\n\n<!-- figures from ../../../../etc/hostname -->\n<!-- /figures -->\n',
    )
    const run = await cli(['figures'], root)
    expect(run.code).toBe(EXIT.usage)
    expect(run.stderr).toMatch(/figures may name only \.json results files inside the repository/)
  })
})
