import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { selectSuites } from '../src/harness/suites.js'
import { allSuites, ROOT } from './fixtures.js'

test('the suites are found, in run order; the default run is the quick ones; server suites run only when named', async () => {
  const suites = await allSuites()
  expect(selectSuites(suites, undefined).map((s) => s.name)).toEqual([
    'ids',
    'hash',
    'lag',
    'concurrency',
    'stretch',
    'ids-in-fastify',
  ])
  expect(selectSuites(suites, ['http', 'stores']).map((s) => s.name)).toEqual(['http', 'stores'])
})

test('the README’s table of suites says what each declaration says its ratios divide by', async () => {
  const readme = readFileSync(join(ROOT, 'benchmarks', 'README.md'), 'utf8')
  const table = readme.slice(readme.indexOf('| suite '), readme.indexOf('\n\n', readme.indexOf('| suite ')))
  const said = Object.fromEntries(
    table
      .split('\n')
      .slice(2)
      .map((line) => line.split('|').map((cell) => cell.trim()))
      .map((cells) => [(cells[1] ?? '').replaceAll('`', ''), cells[3]]),
  )
  const suites = await allSuites()
  expect(Object.keys(said).sort()).toEqual(suites.map((s) => s.name).sort())
  for (const suite of suites) expect(said[suite.name], suite.name).toBe(suite.baseline)
})
