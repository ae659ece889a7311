import { execFileSync } from 'node:child_process'
import * as crypto from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { expect, test, vi } from 'vitest'
import { createIdGenerator } from '../src/index.js'
import { withoutCodeGeneration } from './without-code-generation.js'

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
