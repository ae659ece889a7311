import { type Check, idChecks, type ResolvedIdCheckOptions, resolveOptions } from '@authlab/conformance'
import { test } from 'vitest'
import type { FastIdOptions, FastIdTechnique } from '../src/index.js'

// The built module, as published (see idGeneratorSuite).
const built = new URL('../dist/esm/index.js', import.meta.url)
const { createIdGenerator }: typeof import('../src/index.js') = await import(built.href)

// conformance.test.ts runs the whole suite on the technique this Node chooses (json-batch). The other
// techniques run here, on Node, the checks that depend on how each builds its strings; the statistical
// checks run on Node only, so Bun's latin1-slice is judged here through the same Buffer methods.
// - latin1-slice: format, per-position uniformity and independence (the slices must fall on whole IDs
//   of the encoded pool). Its strings are copies by construction (Buffer#latin1Slice makes a new string
//   in Node and Bun); the memory check, 3 s, would only confirm that of Node's.
// - loop: format, retained memory and async interleaving. The unrolled call turns the same pool bytes
//   into the same IDs (no-codegen.test.ts), so the loop's checks speak for both.
// Uniqueness across refills is checked for every technique in techniques.test.ts, with pools of
// three IDs; the 344,492-ID duplicate check and the byte-reuse check decide nothing more here.
const { format, uniformity, independence, retainedMemory, asyncInterleaving } = idChecks
const checksOf: Partial<Record<FastIdTechnique, Check<ResolvedIdCheckOptions>[]>> = {
  'latin1-slice': [format, uniformity, independence],
  loop: [format, retainedMemory, asyncInterleaving],
}
for (const [technique, checks] of Object.entries(checksOf)) {
  const options = resolveOptions({
    factory: (opts?: FastIdOptions) =>
      createIdGenerator({ ...opts, technique: technique as FastIdTechnique }),
  })
  for (const check of checks) {
    test(`@authlab/id-fast, ${technique}: ${check.title}`, () => check.run(options), 120_000)
  }
}
