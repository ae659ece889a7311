import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { IdGenerator } from '@authlab/core'
import type { TestFunction } from '../test-function.js'

/**
 * Runs `build` as on a host that refuses code generation from strings (edge runtimes, a strict
 * Content-Security-Policy, `node --disallow-code-generation-from-strings`): `new Function` throws an
 * EvalError. A generator that unrolls its loop with `new Function` must fall back here, not throw.
 */
export function withoutCodeGeneration<T>(build: () => T): T {
  const real = globalThis.Function
  globalThis.Function = function refused() {
    throw new EvalError('Code generation from strings disallowed for this context')
  } as unknown as FunctionConstructor
  try {
    return build()
  } finally {
    globalThis.Function = real
  }
}

/**
 * A package's generator as a host that refuses code generation builds it, renamed for the bench's
 * `--candidate` row beside the package's own: throws when the package did not take its loop path.
 */
export function noCodeGenerationCandidate(build: () => IdGenerator, name: string): IdGenerator {
  const loop = withoutCodeGeneration(build)
  if (!loop.info.wraps.includes('no code generation'))
    throw new Error(`${loop.info.name} did not take its no-code-generation path`)
  // The package froze its own descriptor onto the function, so the row's distinct name goes on a
  // forwarding function; the JIT inlines the forward.
  const generate = ((request?: unknown) => (loop as (r?: unknown) => string)(request)) as IdGenerator
  Object.defineProperty(generate, 'info', {
    value: Object.freeze({
      ...loop.info,
      name,
      displayName: `${loop.info.displayName}, no code generation`,
    }),
  })
  return generate
}

/** What a built module's default generator reported, and two IDs it made, in a fresh process. */
export interface FreshProcessIds {
  readonly wraps: string
  readonly ids: readonly string[]
}

/**
 * Imports a built module in a fresh `node` with `flags` (its ESM build by URL, or its CommonJS build by
 * `require`) and draws two IDs from its `generateId`: V8 refuses code generation per process, so a
 * fresh process is the only honest way to test a build under `--disallow-code-generation-from-strings`.
 */
export function idsInFreshNode(
  build: { readonly esm: URL } | { readonly cjs: URL },
  flags: readonly string[],
): FreshProcessIds {
  const load =
    'esm' in build
      ? `import(${JSON.stringify(build.esm.href)})`
      : `Promise.resolve(require(${JSON.stringify(fileURLToPath(build.cjs))}))`
  const script = `${load}.then(({ generateId }) => console.log(JSON.stringify({ wraps: generateId.info.wraps, ids: [generateId(), generateId()] })))`
  return JSON.parse(
    execFileSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' }),
  ) as FreshProcessIds
}

/**
 * Registers one test per build (ESM and CommonJS, from the package's `dist/`): in a fresh `node
 * --disallow-code-generation-from-strings` the build imports, reports its no-codegen path in
 * `info.wraps` and makes two distinct well-formed IDs; without the flag (the control) it takes the
 * code-generating path, so the test sees the switch and not a package that never generates code.
 */
export function buildWithoutCodeGenerationChecks(
  test: TestFunction,
  dist: URL,
  idPattern: RegExp,
  marker = 'no code generation',
): void {
  const builds = {
    ESM: { esm: new URL('esm/index.js', dist) },
    CommonJS: { cjs: new URL('cjs/index.js', dist) },
  }
  for (const [format, build] of Object.entries(builds)) {
    test(`${format} build imports and generates under node --disallow-code-generation-from-strings`, () => {
      const refused = idsInFreshNode(build, ['--disallow-code-generation-from-strings'])
      assert.ok(refused.wraps.includes(marker), `info.wraps "${refused.wraps}" does not name ${marker}`)
      for (const id of refused.ids) assert.match(id, idPattern)
      assert.notEqual(refused.ids[0], refused.ids[1])
      assert.ok(!idsInFreshNode(build, []).wraps.includes(marker), 'the control took the no-codegen path too')
    })
  }
}
