import assert from 'node:assert/strict'
import type { PasswordHasher } from '@authlab/core'
import type { TestFunction } from '../test-function.js'

export interface BoundedDerivationsOptions {
  readonly test: TestFunction
  /** The package's factory: it must take `maxConcurrent` and scrypt's `ln`, `r`, `p`. */
  readonly createHasher: (options?: Record<string, unknown>) => PasswordHasher
  /** The documented default of `maxConcurrent`. */
  readonly defaultMax: number
}

// scrypt's V is 128·N·r bytes (RFC 7914 §5): 16 MiB at ln=14, r=8.
const V_BYTES = 128 * 2 ** 14 * 8

async function peakArrayBuffersDuring<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const base = process.memoryUsage().arrayBuffers
  let peak = base
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().arrayBuffers)
  }, 1)
  try {
    return { result: await work(), growth: peak - base }
  } finally {
    clearInterval(sampler)
  }
}

const isOverload = (outcome: PromiseSettledResult<boolean>) =>
  outcome.status === 'rejected' && (outcome.reason as { code?: string })?.code === 'ERR_AUTHLAB_OVERLOAD'

/**
 * A pure-JS scrypt holds one 128·N·r buffer per derivation in flight, so without a bound a burst of
 * logins takes memory in proportion to the burst (OWASP: limit resource use per request). These checks
 * hold a package to its `maxConcurrent`: one derivation too many is refused with core's OverloadError,
 * memory stays at the bound, and the bound frees as derivations end.
 */
export function boundedDerivationsSuite({
  test,
  createHasher,
  defaultMax: max,
}: BoundedDerivationsOptions): void {
  test('maxConcurrent + 1 verifies in flight: the last is refused with an OverloadError', async () => {
    const hasher = createHasher({ ln: 14, r: 8, p: 1 })
    const stored = await hasher.hash('correct horse')
    const settled = await Promise.allSettled(
      Array.from({ length: max + 1 }, () => hasher.verify(stored, 'wrong')),
    )
    assert.deepEqual(settled.slice(0, max), Array(max).fill({ status: 'fulfilled', value: false }))
    assert.ok(
      isOverload(settled[max] as PromiseSettledResult<boolean>),
      'the one over the bound is an OverloadError',
    )
    assert.equal(await hasher.verify(stored, 'correct horse'), true, 'the bound frees as derivations end')
  })

  test('memory in flight stays at maxConcurrent derivations however many logins arrive', async () => {
    const hasher = createHasher({ ln: 14, r: 8, p: 1 })
    const stored = await hasher.hash('correct horse')
    const { result, growth } = await peakArrayBuffersDuring(() =>
      Promise.allSettled(Array.from({ length: 4 * max }, () => hasher.verify(stored, 'wrong'))),
    )
    assert.ok(growth < (max + 1) * V_BYTES, `array buffers grew ${growth} bytes`)
    assert.equal(result.filter(isOverload).length, 3 * max)
  })

  test('maxConcurrent sets the bound', async () => {
    const hasher = createHasher({ ln: 10, r: 8, p: 1, maxConcurrent: 1 })
    // Declared, so a caller can admit its own work against it (PasswordHasher.maxConcurrent).
    assert.deepEqual([hasher.maxConcurrent, createHasher().maxConcurrent], [1, max])
    const stored = await hasher.hash('correct horse')
    const settled = await Promise.allSettled([hasher.verify(stored, 'wrong'), hasher.verify(stored, 'wrong')])
    assert.deepEqual(
      settled.map((outcome) => outcome.status),
      ['fulfilled', 'rejected'],
    )
  })

  test('maxConcurrent is checked like every option', () => {
    assert.throws(() => createHasher({ maxConcurrent: 0 }), { code: 'ERR_AUTHLAB_INVALID_OPTION' })
  })
}
