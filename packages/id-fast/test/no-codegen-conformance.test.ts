import { idChecks, resolveOptions, withoutCodeGeneration } from '@authlab/conformance'
import { test } from 'vitest'
import { createIdGenerator, type FastIdOptions } from '../src/index.js'

// The conformance checks (format, uniqueness, uniformity, independence, no byte reuse, retained
// memory, async interleaving) on the path taken where code generation is refused. Code generation
// cannot be refused for one worker thread alone (the V8 flag is per process), so in place of the
// worker check no-codegen.test.ts runs the built module under node --disallow-code-generation-from-strings.
const { worksInWorker: _, ...checks } = idChecks
const options = resolveOptions({
  factory: (opts?: FastIdOptions) => withoutCodeGeneration(() => createIdGenerator(opts)),
})
for (const check of Object.values(checks)) {
  test(`@authlab/id-fast without code generation: ${check.title}`, () => check.run(options), 120_000)
}
