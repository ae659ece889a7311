import { argon2Sync, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { hasherSuite } from '@authlab/conformance'
import { createHasher as nativeArgon2 } from '@authlab/hash-argon2'
import { describe, expect, test } from 'vitest'
import { argon2Wasm, WASM_FILE } from '../scripts/argon2-wasm.mjs'
import { argon2idFromModule } from '../src/argon2.js'
import { createHasher } from '../src/index.js'

// The shipped file, as a consumer resolves it through the package's exports, compiled as a Worker
// receives it. (TypeScript's Node types declare no WebAssembly: typed here by what is used.)
const shipped = readFileSync(createRequire(import.meta.url).resolve('@authlab/hash-wasm/argon2.wasm'))
const { WebAssembly: wasm } = globalThis as unknown as {
  WebAssembly: { Module: new (bytes: Uint8Array) => object }
}
const module = new wasm.Module(shipped)
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

test('the shipped argon2.wasm is what scripts/argon2-wasm.mjs writes, byte for byte', () => {
  expect(readFileSync(WASM_FILE).equals(shipped)).toBe(true)
  expect(Buffer.from(argon2Wasm()).equals(shipped)).toBe(true)
})

describe('argon2id over the precompiled module', async () => {
  const argon2id = await argon2idFromModule(module)

  test('RFC 9106 §5.3 test vector (p=4 lanes, secret and associated data)', () => {
    const tag = argon2id({
      password: new Uint8Array(32).fill(1),
      salt: new Uint8Array(16).fill(2),
      secret: new Uint8Array(8).fill(3),
      ad: new Uint8Array(12).fill(4),
      m: 32,
      t: 3,
      p: 4,
      tagLength: 32,
    })
    expect(hex(tag)).toBe('0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659')
  })

  // Node's crypto.argon2Sync (OpenSSL) as the independent implementation: lanes 1-4, one to three
  // passes, memory not a multiple of 4·p, tags shorter and longer than one BLAKE2b digest (H' for
  // T > 64), empty and long passwords, and more than 128 blocks per segment (several address blocks).
  test.for([
    { m: 8, t: 1, p: 1, tagLength: 4, password: 0 },
    { m: 64, t: 3, p: 1, tagLength: 32, password: 1 },
    { m: 333, t: 2, p: 3, tagLength: 65, password: 17 },
    { m: 1030, t: 1, p: 2, tagLength: 128, password: 64 },
    { m: 2048, t: 2, p: 4, tagLength: 16, password: 200 },
    { m: 4100, t: 2, p: 1, tagLength: 64, password: 8 },
  ])('matches node:crypto argon2 at m=$m t=$t p=$p, $tagLength-byte tag', ({ password, ...params }) => {
    const message = randomBytes(password)
    const nonce = randomBytes(16)
    const secret = randomBytes(password % 3 === 0 ? 0 : 8)
    const associatedData = randomBytes(password % 2)
    const ours = argon2id({ password: message, salt: nonce, secret, ad: associatedData, ...params })
    const node = argon2Sync('argon2id', {
      message,
      nonce,
      secret,
      associatedData,
      memory: params.m,
      passes: params.t,
      parallelism: params.p,
      tagLength: params.tagLength,
    })
    expect(hex(ours)).toBe(node.toString('hex'))
  })

  test('one instance hashes a small setting after a large one: no state carries over', () => {
    const input = { password: Uint8Array.of(1), salt: new Uint8Array(16), t: 1, p: 1, tagLength: 32 }
    const small = hex(argon2id({ ...input, m: 64 }))
    argon2id({ ...input, m: 4096 })
    expect(hex(argon2id({ ...input, m: 64 }))).toBe(small)
  })
})

test('a module option that is not a WebAssembly.Module, or given to scrypt, is an InvalidOptionError', () => {
  const invalid = expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_OPTION' })
  expect(() => createHasher({ module: shipped })).toThrow(invalid)
  expect(() => createHasher({ algorithm: 'scrypt', module } as never)).toThrow(invalid)
  expect(createHasher({ module }).info.wraps).toMatch(/precompiled module/)
})

// The precompiled path is an argon2id strategy of its own: the same suite as every other, with the
// native binding as its peer, in both directions.
hasherSuite({
  test,
  name: '@authlab/hash-wasm (argon2id, precompiled module)',
  factory: (params) => createHasher({ module, ...params }),
  // About 0.1 s a hash here: enough for the event-loop sample (≥ 150 ms over at most four hashes).
  blockingParams: { m: 32768, t: 3, p: 1 },
  peers: [nativeArgon2({ m: 256, t: 2, p: 1 })],
})
