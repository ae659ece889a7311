import * as crypto from 'node:crypto'
import { buildWithoutCodeGenerationChecks, withoutCodeGeneration } from '@authlab/conformance'
import { expect, test, vi } from 'vitest'
import { createIdGenerator } from '../src/index.js'

vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof crypto>()
  return { ...real, randomInt: vi.fn(real.randomInt) }
})

test('refused code generation selects the loop; the same randomInt draws give the same IDs as the unrolled path', () => {
  // A fixed sequence of draws in place of the CSPRNG, so both paths can be compared ID for ID.
  const fixedDraws = () => {
    let n = 0
    vi.mocked(crypto.randomInt).mockImplementation(
      ((max: number) => (n++ * 37 + 11) % max) as typeof crypto.randomInt,
    )
  }
  try {
    const plain = withoutCodeGeneration(() => createIdGenerator())
    const unrolled = createIdGenerator()
    expect(plain.info.wraps).toContain('no code generation')
    expect(unrolled.info.wraps).not.toContain('no code generation')
    fixedDraws()
    const fromPlain = Array.from({ length: 3 }, plain)
    fixedDraws()
    expect(Array.from({ length: 3 }, unrolled)).toEqual(fromPlain)
  } finally {
    vi.mocked(crypto.randomInt).mockRestore()
  }
})

buildWithoutCodeGenerationChecks(test, new URL('../dist/', import.meta.url), /^[A-Za-z0-9_-]{32}$/)
