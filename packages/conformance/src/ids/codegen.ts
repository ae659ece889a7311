import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

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
