// A `.wasm` import is a compiled WebAssembly.Module in Workers (wrangler's CompiledWasm module rule)
// and in the bundlers that follow it.
declare module '*.wasm' {
  const module: object
  export default module
}
