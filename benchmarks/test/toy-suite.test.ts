import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { EXIT } from '../src/main.js'
import { cli, tempDir, tempWorkspace } from './fixtures.js'

/** The toy suite's folder: a suite of one folder, named by nothing else in the repository. */
const TOY = join(import.meta.dirname, 'toy-suite')

test('a suite added in one folder appears in the terminal, Markdown, HTML, --explain, --help and compare', async () => {
  const io = { suiteDirs: [TOY] }
  const help = await cli(['--help'], undefined, io)
  expect(help.stdout).toMatch(/--suite [a-z,-]*,toy\]/)
  const explain = await cli(['--explain', '--suite', 'toy'], undefined, io)
  expect(explain).toMatchObject({ code: EXIT.ok })
  expect(explain.stdout.replace(/\n/g, ' ')).toContain('Toy method: 3 rounds of 200 sums each way.')

  const out = tempDir()
  const run = await cli(['--suite', 'toy', '--out', out, '--seed', '1'], tempWorkspace(), io)
  expect(run.code).toBe(EXIT.ok)
  expect(run.stdout).toContain('toy · method: authlab-bench --explain --suite toy')
  expect(run.stdout).toMatch(/sums · × vs a loop · A\/A control: \w+/)
  expect(run.stdout).toContain("Gauss's formula")
  const written = run.stderr.match(/wrote (\S+\.json)\n/)?.[1] as string
  const stem = written.replace(/\.json$/, '')
  const markdown = readFileSync(`${stem}.md`, 'utf8')
  expect(markdown).toContain('## toy')
  expect(markdown).toMatch(/\| Gauss's formula +\|/)
  expect(markdown).toContain('A toy note.')
  const html = readFileSync(`${stem}.html`, 'utf8')
  expect(html).toContain('<section id="toy">')
  expect(html).toContain('<figure class="chart" id="toy-sums">')

  const compare = await cli(['compare', written, written], undefined, io)
  expect(compare.code).toBe(EXIT.ok)
  expect(compare.stdout).toContain('toy · defaults · sum · toy:formula: ')
})
