import { expect, test } from 'vitest'
import { selectSuites } from '../src/harness/suites.js'
import { allSuites } from './fixtures.js'

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
