import assert from 'node:assert/strict'
import vm from 'node:vm'
import type { PasswordHasher } from '@authlab/core'
import type { TestFunction } from '../test-function.js'

export interface BoundedDerivationsOptions {
  readonly test: TestFunction
  /** The package's factory: it must take `maxConcurrent` and scrypt's `ln`, `r`, `p`. */
  readonly createHasher: (options?: Record<string, unknown>) => PasswordHasher
  /** The documented default of `maxConcurrent`. */
  readonly defaultMax: number
}

// scrypt's V is 128·N·r bytes (RFC 7914 §5): 16 MiB at ln=14, r=8; 4 MiB at ln=12.
const V_BYTES = 128 * 2 ** 14 * 8
const SMALL_V_BYTES = 128 * 2 ** 12 * 8

/**
 * The peak of the process's array buffers above their level at the start, sampled every millisecond and
 * whenever `work` calls `sample` (a timer alone can miss a peak when the work yields to the loop by
 * other means than timers).
 */
async function peakArrayBuffersDuring<T>(
  work: (sample: () => void) => Promise<T>,
): Promise<{ result: T; growth: number }> {
  const base = process.memoryUsage().arrayBuffers
  let peak = base
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().arrayBuffers)
  }
  const sampler = setInterval(sample, 1)
  try {
    return { result: await work(sample), growth: peak - base }
  } finally {
    clearInterval(sampler)
  }
}

/**
 * A full collection before a measurement, so garbage left by earlier tests is not counted against the
 * hasher (or collected during the run, hiding what the hasher left). `vm.measureMemory` with eager
 * execution starts one without `--expose-gc`.
 */
async function collectGarbage(): Promise<void> {
  await vm.measureMemory({ execution: 'eager' })
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

  test('memory stays at maxConcurrent derivations while refused callers keep retrying', async () => {
    // A finished derivation's V is garbage until the engine collects it: a slot freed when the
    // derivation returns lets retrying callers allocate new ones on top of it. Counted in completed
    // derivations, never in time, so a slow machine runs the same test.
    const hasher = createHasher({ ln: 12, r: 8, p: 1 })
    const stored = await hasher.hash('correct horse')
    await collectGarbage()
    const wanted = 4 * max
    let completed = 0
    const { growth } = await peakArrayBuffersDuring(async (sample) => {
      const caller = async () => {
        while (completed < wanted) {
          try {
            assert.equal(await hasher.verify(stored, 'wrong'), false)
            completed++
          } catch (error) {
            if ((error as { code?: string }).code !== 'ERR_AUTHLAB_OVERLOAD') throw error
            await new Promise((resolve) => setTimeout(resolve, 1))
          }
          sample()
        }
      }
      await Promise.all(Array.from({ length: 2 * max }, caller))
    })
    const MiB = 2 ** 20
    assert.ok(
      // Half a bound of margin: the engine frees a collected buffer on a background thread, so a derivation
      // starting at that moment can briefly overlap it. Freed slots without a collection reached 2–3×.
      growth <= 1.5 * max * SMALL_V_BYTES,
      `array buffers grew ${(growth / MiB).toFixed(0)} MiB over ${completed} derivations, bound ${(max * SMALL_V_BYTES) / MiB} MiB`,
    )
  })

  test('maxConcurrent sets the bound', async () => {
    const hasher = createHasher({ ln: 10, r: 8, p: 1, maxConcurrent: 1 })
    // Declared, so a caller can admit its own work against it (PasswordHasherInfo.maxConcurrent).
    assert.deepEqual([hasher.info.maxConcurrent, createHasher().info.maxConcurrent], [1, max])
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
