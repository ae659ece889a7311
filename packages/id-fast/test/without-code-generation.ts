/** Runs `build` as on a host that refuses code generation from strings: `new Function` throws an EvalError. */
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
