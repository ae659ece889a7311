/** The bytes of wasm/argon2.wasm: Argon2's compression function G as one WebAssembly function. */
export declare function argon2Wasm(): Uint8Array
/** Where the shipped file lives. */
export declare const WASM_FILE: string
