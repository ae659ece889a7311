import { expect, test } from 'vitest'
import { selectSuites } from '../src/run.js'
import { SUITES } from '../src/suites/index.js'

test('the default run is the quick suites; server suites run only when named', () => {
  expect(selectSuites(SUITES, undefined).map((s) => s.name)).toEqual([
    'ids',
    'hash',
    'lag',
    'concurrency',
    'stretch',
    'ids-in-fastify',
  ])
  expect(selectSuites(SUITES, ['http', 'stores']).map((s) => s.name)).toEqual(['http', 'stores'])
})
