import { idChecks, resolveOptions, withoutCodeGeneration } from '@authlab/conformance'
import { test } from 'vitest'
import type { FastIdOptions } from '../src/index.js'

// The built module, as published (see idGeneratorSuite).
const built = new URL('../dist/esm/index.js', import.meta.url)
const { createIdGenerator }: typeof import('../src/index.js') = await import(built.href)

// The conformance checks that depend on how the loop path builds its strings, where code generation
// is refused. The statistical checks (uniqueness, uniformity, independence, byte reuse) judge the pool
// bytes, and no-codegen.test.ts proves the loop turns the same bytes into the same IDs as the unrolled
// path across a thousand refills, which conformance.test.ts checks at full size: running them again here
// (344,492 IDs for uniqueness alone) decides nothing new. Code generation cannot be refused for one
// worker thread alone (the V8 flag is per process), so in place of the worker check no-codegen.test.ts
// runs the built module under node --disallow-code-generation-from-strings.
const { format, retainedMemory, asyncInterleaving } = idChecks
const checks = { format, retainedMemory, asyncInterleaving }
const options = resolveOptions({
  factory: (opts?: FastIdOptions) => withoutCodeGeneration(() => createIdGenerator(opts)),
})
for (const check of Object.values(checks)) {
  test(`@authlab/id-fast without code generation: ${check.title}`, () => check.run(options), 120_000)
}
