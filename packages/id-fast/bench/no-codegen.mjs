// A `--candidate` module for the bench app: @authlab/id-fast as a host that refuses code generation
// builds it (edge runtimes, `node --disallow-code-generation-from-strings`). `new Function` throws the
// EvalError such a host throws (ECMA-262 HostEnsureCanCompileStrings) while the generator is built,
// so the package takes its loop path exactly as it would there. Measured beside the package's own row:
//
//   npm run bench -- --suite ids --filter id-fast --candidate packages/id-fast/bench/no-codegen.mjs
//
// Both rows are ratios to the same baselines in the same rounds.
import { noCodeGenerationCandidate } from '@authlab/conformance'
import { createIdGenerator as build } from '@authlab/id-fast'

export const createIdGenerator = (options) =>
  noCodeGenerationCandidate(() => build(options), 'id-fast:no-codegen')
