import { HTTP_CEILING, ID_BASELINES } from '@authlab/benchmarks/harness'
import { describe, expect, test } from 'vitest'
import { HTTP_ID_BASELINES } from '../src/http/run.js'

describe('the http suite divides its ids rows by the ceiling and the frameworks’ defaults', () => {
  test('crypto.randomUUID() and crypto.randomUUIDv7() are ordinary reference rows there, not baselines', () => {
    expect(ID_BASELINES).toContain('ref:randomUUIDv7')
    expect(HTTP_ID_BASELINES).not.toContain('ref:randomUUID')
    expect(HTTP_ID_BASELINES).not.toContain('ref:randomUUIDv7')
    expect(HTTP_ID_BASELINES).toEqual([
      HTTP_CEILING,
      'ref:fastify-session',
      'ref:express-session',
      'ref:better-auth',
    ])
  })
})
