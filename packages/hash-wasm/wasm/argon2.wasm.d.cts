// argon2.wasm is imported as a compiled module where a runtime or bundler delivers `.wasm` files that
// way (Cloudflare Workers; wrangler's CompiledWasm rule): a WebAssembly.Module, typed here as an
// object so no particular lib has to declare WebAssembly. Pass it as createHasher({ module }).
declare const argon2Wasm: object
export = argon2Wasm
