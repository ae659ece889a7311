/**
 * The ways this package can turn CSPRNG bytes into IDs. Every one makes the same shape: `length`
 * base64url characters carrying `bytes` × 8 random bits, as flat strings that pin nothing else.
 */
export const FAST_ID_TECHNIQUES = ['json-batch', 'latin1-slice', 'unrolled', 'loop'] as const
export type FastIdTechnique = (typeof FAST_ID_TECHNIQUES)[number]

/** What the choice of technique depends on, read from the running runtime by `describeRuntime`. */
export interface RuntimeDescription {
  /**
   * The JavaScript engine, by the runtime's own report: `javascriptcore` where `process.versions` has
   * `bun` or `webkit` (Bun also reports a `v8` version, for packages that test for Node), `v8` where it
   * has `v8` (Node; Deno too, which also reports `Deno.version.v8`), `other` elsewhere (browsers,
   * edge workers), which report no engine.
   */
  readonly engine: 'v8' | 'javascriptcore' | 'other'
  /** `Uint8Array.prototype.toBase64` (ECMAScript 2026) exists. */
  readonly toBase64: boolean
  /** Node's `Buffer`, with the `latin1Slice` Node and Bun both implement, exists. */
  readonly nodeBuffer: boolean
  /** `TextEncoder#encodeInto` and `TextDecoder` exist. */
  readonly textCodecs: boolean
  /** `new Function` compiles (edge runtimes and strict Content-Security-Policy pages refuse it). */
  readonly codeGeneration: boolean
}

interface RuntimeGlobals {
  readonly process?: { readonly versions?: Readonly<Record<string, string | undefined>> }
  readonly Deno?: { readonly version?: { readonly v8?: string } }
  readonly Buffer?: { readonly prototype?: { readonly latin1Slice?: unknown } }
  readonly TextEncoder?: { readonly prototype?: { readonly encodeInto?: unknown } }
  readonly TextDecoder?: unknown
}

/** Reads the running runtime's description; `chooseTechnique` turns it into a technique. */
export function describeRuntime(): RuntimeDescription {
  const scope = globalThis as RuntimeGlobals
  return {
    engine: engineOf(scope),
    toBase64: typeof (Uint8Array.prototype as { toBase64?: unknown }).toBase64 === 'function',
    nodeBuffer: typeof scope.Buffer?.prototype?.latin1Slice === 'function',
    textCodecs:
      typeof scope.TextEncoder?.prototype?.encodeInto === 'function' &&
      typeof scope.TextDecoder === 'function',
    codeGeneration: canGenerateCode(),
  }
}

function engineOf(scope: RuntimeGlobals): RuntimeDescription['engine'] {
  const versions = scope.process?.versions
  if (versions?.bun !== undefined || versions?.webkit !== undefined) return 'javascriptcore'
  if (versions?.v8 !== undefined || scope.Deno?.version?.v8 !== undefined) return 'v8'
  return 'other'
}

/** Whether the host compiles code from strings: it throws an EvalError where it refuses (ECMA-262 HostEnsureCanCompileStrings). */
function canGenerateCode(): boolean {
  try {
    new Function('')
    return true
  } catch (error) {
    if (error instanceof EvalError) return false
    throw error
  }
}

/**
 * The technique for a runtime, from what was measured inside each (the bench's cross-runtime ids suite
 * and paired micro-benchmarks); the same description always gets the same technique:
 * - JavaScriptCore (Bun): `String.fromCharCode` with more than one argument is a host function that
 *   converts each argument in C++ (WebKit Source/JavaScriptCore/runtime/StringConstructor.cpp,
 *   `stringFromCharCode`), and `JSON.parse` made strings more slowly per ID; one `Buffer#latin1Slice`
 *   per ID, copying from a pool of ready characters, was the cheapest way to a new string (`latin1-slice`).
 * - V8 servers (Node, Deno): one `JSON.parse` makes a whole refill of IDs, each a separate flat string,
 *   cheaper per ID than a 32-argument `String.fromCharCode`, and with no code generation (`json-batch`).
 * - Anything else (browsers, edge workers): the unrolled `String.fromCharCode` as measured there, or its
 *   loop where code generation is refused.
 */
export function chooseTechnique(runtime: RuntimeDescription): FastIdTechnique {
  if (runtime.engine === 'javascriptcore' && runtime.nodeBuffer) return 'latin1-slice'
  if (runtime.engine === 'v8' && jsonBatchRuns(runtime)) return 'json-batch'
  return runtime.codeGeneration ? 'unrolled' : 'loop'
}

/** json-batch needs text codecs and a base64url encoder: `Uint8Array#toBase64`, or Node's `Buffer`. */
export function jsonBatchRuns(runtime: RuntimeDescription): boolean {
  return runtime.textCodecs && (runtime.toBase64 || runtime.nodeBuffer)
}
