// A `--candidate` module for the bench app: @authlab/id-fast as a host that refuses code generation
// builds it (edge runtimes, `node --disallow-code-generation-from-strings`). `new Function` throws the
// EvalError such a host throws (ECMA-262 HostEnsureCanCompileStrings) while the generator is built,
// so the package takes its loop path exactly as it would there. Measured beside the package's own row:
//
//   npm run bench -- --suite ids --filter id-fast --candidate packages/id-fast/bench/no-codegen.mjs
//
// Both rows are ratios to the same baselines in the same rounds.
import { createIdGenerator as build } from '@authlab/id-fast'

export function createIdGenerator(options) {
  const allowed = globalThis.Function
  globalThis.Function = function refused() {
    throw new EvalError('Code generation from strings disallowed for this context')
  }
  let loop
  try {
    loop = build(options)
  } finally {
    globalThis.Function = allowed
  }
  if (!loop.info.wraps.includes('no code generation'))
    throw new Error('@authlab/id-fast did not take its no-code-generation path')
  // The package froze its own descriptor onto the function, so the row's distinct name goes on a
  // forwarding function; the JIT inlines the forward.
  const generate = (request) => loop(request)
  generate.info = Object.freeze({
    ...loop.info,
    name: 'id-fast:no-codegen',
    displayName: `${loop.info.displayName}, no code generation`,
  })
  return generate
}
