import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test, vi } from 'vitest'
import { createIdGenerator } from '../src/index.js'

test('the loop turns the same pool bytes into the same IDs as the unrolled call, across 1,000 refills', () => {
  // A fixed byte sequence in place of the CSPRNG, different at every refill, replayed for each technique,
  // so both can be compared ID for ID across many refills (a refill that kept a tail or skipped an
  // offset in one of them would differ).
  let n = 0
  const spy = vi
    .spyOn(globalThis.crypto, 'getRandomValues')
    .mockImplementation(<T extends ArrayBufferView | null>(buffer: T): T => {
      const bytes = buffer as unknown as Uint8Array
      for (let i = 0; i < bytes.length; i++) bytes[i] = (n++ * 37 + 11) & 255
      return buffer
    })
  try {
    const loop = createIdGenerator({ technique: 'loop', poolBytes: 96 })
    const unrolled = createIdGenerator({ technique: 'unrolled', poolBytes: 96 })
    expect(loop.info.wraps).toContain('no code generation')
    expect(unrolled.info.wraps).not.toContain('no code generation')
    // 96-byte pool, 32-character IDs: 3,000 calls cross 1,000 refills.
    const ids = (generate: () => string) => {
      n = 0
      return Array.from({ length: 3000 }, generate)
    }
    const fromLoop = ids(loop)
    expect(new Set(fromLoop).size).toBeGreaterThan(1)
    expect(ids(unrolled)).toEqual(fromLoop)
  } finally {
    spy.mockRestore()
  }
})

/**
 * What a built module reports in a fresh `node` with `flags`: V8 refuses code generation per process
 * (`--disallow-code-generation-from-strings`), so only a fresh process tests the detection honestly.
 */
function inFreshNode(load: string, flags: readonly string[]) {
  const script = `${load}.then((m) => {
    const refused = (technique) => { try { m.createIdGenerator({ technique }); return 'built' } catch (e) { return e.code } }
    console.log(JSON.stringify({
      codeGeneration: m.describeRuntime().codeGeneration,
      wraps: m.generateId.info.wraps,
      ids: [m.generateId(), m.generateId(), m.createIdGenerator({ technique: 'loop' })()],
      unrolled: refused('unrolled'),
    }))
  })`
  return JSON.parse(execFileSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' }))
}

const dist = new URL('../dist/', import.meta.url)
const builds = {
  ESM: `import(${JSON.stringify(new URL('esm/index.js', dist).href)})`,
  CommonJS: `Promise.resolve(require(${JSON.stringify(fileURLToPath(new URL('cjs/index.js', dist)))}))`,
}
for (const [format, load] of Object.entries(builds)) {
  test(`${format} build under node --disallow-code-generation-from-strings: detects it, needs none, refuses a forced unrolled`, () => {
    const refused = inFreshNode(load, ['--disallow-code-generation-from-strings'])
    expect(refused).toMatchObject({ codeGeneration: false, unrolled: 'ERR_AUTHLAB_UNSUPPORTED_RUNTIME' })
    expect(refused.wraps).toContain('JSON.parse')
    for (const id of refused.ids) expect(id).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(new Set(refused.ids).size).toBe(3)
    // The control: the same build without the flag sees code generation allowed and builds unrolled.
    expect(inFreshNode(load, [])).toMatchObject({ codeGeneration: true, unrolled: 'built' })
  })
}
