import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test, vi } from 'vitest'
import { createIdGenerator } from '../src/index.js'
import { withoutCodeGeneration } from './without-code-generation.js'

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

const built = {
  ESM: `import(${JSON.stringify(new URL('../dist/esm/index.js', import.meta.url).href)})`,
  CommonJS: `Promise.resolve(require(${JSON.stringify(fileURLToPath(new URL('../dist/cjs/index.js', import.meta.url)))}))`,
}

test.each(Object.entries(built))(
  '%s build imports and generates under node --disallow-code-generation-from-strings',
  (_, load) => {
    const script = `${load}.then(({ generateId }) => console.log(JSON.stringify({ wraps: generateId.info.wraps, ids: [generateId(), generateId()] })))`
    const run = (flags: string[]) =>
      JSON.parse(execFileSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' })) as {
        wraps: string
        ids: string[]
      }
    const refused = run(['--disallow-code-generation-from-strings'])
    expect(refused.wraps).toContain('no code generation')
    for (const id of refused.ids) expect(id).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(refused.ids[0]).not.toBe(refused.ids[1])
    // Control: without the flag the unrolled path is chosen.
    expect(run([]).wraps).not.toContain('no code generation')
  },
)
