import { buildWithoutCodeGenerationChecks, withoutCodeGeneration } from '@authlab/conformance'
import { expect, test, vi } from 'vitest'
import { createIdGenerator } from '../src/index.js'

test('refused code generation selects the loop; the same pool bytes give the same IDs as the unrolled path', () => {
  // A fixed byte sequence in place of the CSPRNG, so both paths can be compared ID for ID.
  const spy = vi
    .spyOn(globalThis.crypto, 'getRandomValues')
    .mockImplementation(<T extends ArrayBufferView | null>(buffer: T): T => {
      const bytes = buffer as unknown as Uint8Array
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 37 + 11) & 255
      return buffer
    })
  try {
    const plain = withoutCodeGeneration(() => createIdGenerator({ poolBytes: 64 }))
    const unrolled = createIdGenerator({ poolBytes: 64 })
    expect(plain.info.wraps).toContain('no code generation')
    expect(unrolled.info.wraps).not.toContain('no code generation')
    // 64-byte pool, 32-character IDs: five calls cross two refills.
    const ids = (generate: () => string) => Array.from({ length: 5 }, generate)
    expect(ids(plain)).toEqual(ids(unrolled))
  } finally {
    spy.mockRestore()
  }
})

buildWithoutCodeGenerationChecks(test, new URL('../dist/', import.meta.url), /^[A-Za-z0-9_-]{32}$/)
