import { withoutCodeGeneration } from '@authlab/conformance'
import { describe, expect, test } from 'vitest'
import {
  chooseTechnique,
  createIdGenerator,
  describeRuntime,
  FAST_ID_TECHNIQUES,
  type RuntimeDescription,
} from '../src/index.js'

const ID_32 = /^[A-Za-z0-9_-]{32}$/

describe('every technique makes valid, distinct IDs of the declared shape', () => {
  for (const technique of FAST_ID_TECHNIQUES) {
    test(`${technique}: 32 base64url characters, 192 bits, distinct across 1,000 refills`, () => {
      // A pool of 3 IDs: 3,000 calls cross 1,000 refills, where an offset or refill bug (a tail kept, a
      // slot skipped, a pool not redrawn) would repeat or malform an ID.
      const generate = createIdGenerator({ technique, poolBytes: 96 })
      expect(generate.info).toMatchObject({ length: 32, entropyBits: 192, poolBytes: expect.any(Number) })
      const ids = Array.from({ length: 3000 }, () => generate())
      for (const id of ids) expect(id).toMatch(ID_32)
      expect(new Set(ids).size).toBe(ids.length)
    })

    test(`${technique}: other sizes keep length = bytes × 4 ÷ 3 and the alphabet`, () => {
      for (const bytes of [18, 48, 768]) {
        const length = (bytes * 4) / 3
        const generate = createIdGenerator({ technique, bytes, poolBytes: 2 * length })
        const ids = Array.from({ length: 9 }, () => generate())
        for (const id of ids) expect(id).toMatch(new RegExp(`^[A-Za-z0-9_-]{${length}}$`))
        expect(new Set(ids).size).toBe(ids.length)
        expect(generate.info.entropyBits).toBe(bytes * 8)
      }
    })
  }

  test('each technique says which it is in info.wraps', () => {
    const wraps = FAST_ID_TECHNIQUES.map((technique) => createIdGenerator({ technique }).info.wraps)
    expect(wraps[0]).toContain('JSON.parse')
    expect(wraps[1]).toContain('latin1Slice')
    expect(wraps[2]).toContain('String.fromCharCode(32 codes)')
    expect(wraps[3]).toContain('no code generation')
  })
})

describe('chooseTechnique: the same runtime description always gets the same technique', () => {
  const node26: RuntimeDescription = {
    engine: 'v8',
    toBase64: true,
    nodeBuffer: true,
    textCodecs: true,
    codeGeneration: true,
  }
  const cases: [string, RuntimeDescription, string][] = [
    ['Node 26', node26, 'json-batch'],
    ['Node 22 and 24 (no Uint8Array#toBase64)', { ...node26, toBase64: false }, 'json-batch'],
    ['Node refusing code generation', { ...node26, codeGeneration: false }, 'json-batch'],
    ['Deno', node26, 'json-batch'],
    ['Bun', { ...node26, engine: 'javascriptcore' }, 'latin1-slice'],
    ['a browser', { ...node26, engine: 'other', nodeBuffer: false }, 'unrolled'],
    [
      'a page or edge worker refusing code generation',
      { ...node26, engine: 'other', nodeBuffer: false, codeGeneration: false },
      'loop',
    ],
    [
      'JavaScriptCore without Buffer (Safari)',
      { ...node26, engine: 'javascriptcore', nodeBuffer: false },
      'unrolled',
    ],
    ['V8 without a base64url encoder', { ...node26, toBase64: false, nodeBuffer: false }, 'unrolled'],
    ['V8 without TextEncoder', { ...node26, textCodecs: false }, 'unrolled'],
  ]
  for (const [name, runtime, expected] of cases) {
    test(`${name} → ${expected}`, () => {
      expect(chooseTechnique(runtime)).toBe(expected)
      expect(chooseTechnique({ ...runtime })).toBe(expected)
    })
  }
})

describe('describeRuntime reads the running runtime', () => {
  test(`this Node (${process.versions.node}) is V8 with Buffer, text codecs and code generation`, () => {
    expect(describeRuntime()).toEqual({
      engine: 'v8',
      toBase64: typeof (Uint8Array.prototype as { toBase64?: unknown }).toBase64 === 'function',
      nodeBuffer: true,
      textCodecs: true,
      codeGeneration: true,
    })
    expect(createIdGenerator().info.wraps).toContain('JSON.parse')
  })

  test('where code generation is refused it says so; Node still needs none, and a forced unrolled is a typed error', () => {
    withoutCodeGeneration(() => {
      expect(describeRuntime().codeGeneration).toBe(false)
      expect(createIdGenerator().info.wraps).toContain('JSON.parse')
      expect(() => createIdGenerator({ technique: 'unrolled' })).toThrow(
        expect.objectContaining({ code: 'ERR_AUTHLAB_UNSUPPORTED_RUNTIME' }),
      )
      expect(createIdGenerator({ technique: 'loop' })()).toMatch(ID_32)
    })
  })

  test('an unknown technique is an InvalidOptionError naming the valid ones', () => {
    expect(() => createIdGenerator({ technique: 'fastest' as never })).toThrow(
      expect.objectContaining({
        code: 'ERR_AUTHLAB_INVALID_OPTION',
        message: expect.stringContaining('"json-batch", "latin1-slice", "unrolled", "loop"'),
      }),
    )
  })
})
