import { expect, test } from 'vitest'
import { createHasher } from '../src/index.js'

// scrypt's V is 128·N·r bytes (RFC 7914 §5): 16 MiB at ln=14, r=8.
const V_BYTES = 128 * 2 ** 14 * 8
// The documented default of maxConcurrent.
const MAX = 4

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

test('maxConcurrent + 1 verifies in flight: the last is refused with an OverloadError', async () => {
  const hasher = createHasher({ ln: 14, r: 8, p: 1 })
  const stored = await hasher.hash('correct horse')
  const settled = await Promise.allSettled(
    Array.from({ length: MAX + 1 }, () => hasher.verify(stored, 'wrong')),
  )
  expect(settled.slice(0, MAX)).toEqual(Array(MAX).fill({ status: 'fulfilled', value: false }))
  expect(settled[MAX]).toMatchObject({ status: 'rejected', reason: { code: 'ERR_AUTHLAB_OVERLOAD' } })
  // The bound frees as derivations end: the next login goes through.
  expect(await hasher.verify(stored, 'correct horse')).toBe(true)
})

test('memory in flight stays at maxConcurrent derivations however many logins arrive', async () => {
  const hasher = createHasher({ ln: 14, r: 8, p: 1 })
  const stored = await hasher.hash('correct horse')
  const { result, growth } = await peakArrayBuffersDuring(() =>
    Promise.allSettled(Array.from({ length: 4 * MAX }, () => hasher.verify(stored, 'wrong'))),
  )
  expect(growth).toBeLessThan((MAX + 1) * V_BYTES)
  expect(result.filter((outcome) => outcome.status === 'rejected')).toHaveLength(3 * MAX)
})

test('maxConcurrent sets the bound', async () => {
  const hasher = createHasher({ ln: 10, r: 8, p: 1, maxConcurrent: 1 })
  const stored = await hasher.hash('correct horse')
  const settled = await Promise.allSettled([hasher.verify(stored, 'wrong'), hasher.verify(stored, 'wrong')])
  expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected'])
})

test('maxConcurrent is checked like every option', () => {
  expect(() => createHasher({ maxConcurrent: 0 })).toThrow(
    expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_OPTION' }),
  )
})
