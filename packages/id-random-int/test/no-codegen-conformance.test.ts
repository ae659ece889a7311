import { idChecks, resolveOptions, withoutCodeGeneration } from '@authlab/conformance'
import { test } from 'vitest'
import type { RandomIntIdOptions } from '../src/index.js'

// The built module, as published (see idGeneratorSuite).
const built = new URL('../dist/esm/index.js', import.meta.url)
const { createIdGenerator }: typeof import('../src/index.js') = await import(built.href)

// The conformance checks that depend on how the loop path builds its strings, where code generation
// is refused. The statistical checks (uniqueness, uniformity, independence, byte reuse) judge the
// randomInt draws, and no-codegen.test.ts proves the loop turns the same draws into the same IDs as
// the unrolled path that conformance.test.ts checks at full size; at 0.6 M IDs/s, running them again
// here would add minutes and decide nothing new. Code generation cannot be refused for one worker
// thread alone (the V8 flag is per process), so in place of the worker check no-codegen.test.ts runs
// the built module under node --disallow-code-generation-from-strings.
const { format, retainedMemory, asyncInterleaving } = idChecks
const checks = { format, retainedMemory, asyncInterleaving }
const options = resolveOptions({
  factory: (opts?: RandomIntIdOptions) => withoutCodeGeneration(() => createIdGenerator(opts)),
})
for (const check of Object.values(checks)) {
  test(`@authlab/id-random-int without code generation: ${check.title}`, () => check.run(options), 120_000)
}
