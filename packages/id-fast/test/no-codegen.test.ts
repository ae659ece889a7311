import { buildWithoutCodeGenerationChecks, withoutCodeGeneration } from '@authlab/conformance'
import { expect, test, vi } from 'vitest'
import { createIdGenerator } from '../src/index.js'

test('refused code generation selects the loop; the same pool bytes give the same IDs as the unrolled path', () => {
  // A fixed byte sequence in place of the CSPRNG, different at every refill, replayed for each path, so
  // both can be compared ID for ID across many refills (a refill that kept a tail or skipped an offset
  // in one path would differ).
  let n = 0
  const spy = vi
    .spyOn(globalThis.crypto, 'getRandomValues')
    .mockImplementation(<T extends ArrayBufferView | null>(buffer: T): T => {
      const bytes = buffer as unknown as Uint8Array
      for (let i = 0; i < bytes.length; i++) bytes[i] = (n++ * 37 + 11) & 255
      return buffer
    })
  try {
    const plain = withoutCodeGeneration(() => createIdGenerator({ poolBytes: 96 }))
    const unrolled = createIdGenerator({ poolBytes: 96 })
    expect(plain.info.wraps).toContain('no code generation')
    expect(unrolled.info.wraps).not.toContain('no code generation')
    // 96-byte pool, 32-character IDs: 3,000 calls cross 1,000 refills.
    const ids = (generate: () => string) => {
      n = 0
      return Array.from({ length: 3000 }, generate)
    }
    const fromPlain = ids(plain)
    expect(new Set(fromPlain).size).toBeGreaterThan(1)
    expect(ids(unrolled)).toEqual(fromPlain)
  } finally {
    spy.mockRestore()
  }
})

buildWithoutCodeGenerationChecks(test, new URL('../dist/', import.meta.url), /^[A-Za-z0-9_-]{32}$/)
