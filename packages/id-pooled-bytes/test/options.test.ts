import { expect, test } from 'vitest'
import { createIdGenerator } from '../src/index.js'

test.each([{ bytes: 20 }, { bytes: -3 }, { idsPerRefill: 0 }, { idsPerRefill: 1.5 }, { idsPerRefill: 1e9 }])(
  'rejects %j with a typed error before allocating a pool',
  (options) => {
    expect(() => createIdGenerator(options)).toThrow(
      expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_OPTION' }),
    )
  },
)

test('one ID per refill still never repeats bytes', () => {
  const generate = createIdGenerator({ idsPerRefill: 1 })
  const ids = Array.from({ length: 1000 }, () => generate())
  expect(new Set(ids).size).toBe(1000)
  expect(ids.every((id) => id.length === 32)).toBe(true)
})
