import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

// workerd refuses WebAssembly.compile() of bytes ("Wasm code generation disallowed by embedder").
// hash-wasm compiles its embedded bytes on first use and keeps the (here rejected) promise for the
// life of the process, so the refusal is staged in a Node process of its own, the way workerd answers.
const INDEX = new URL('../dist/esm/index.js', import.meta.url).href
const SCRIPT = `
WebAssembly.compile = async () => {
  throw new WebAssembly.CompileError('WebAssembly.compile(): Wasm code generation disallowed by embedder')
}
const { createHasher } = await import(${JSON.stringify(INDEX)})
const seen = []
for (const options of [undefined, { algorithm: 'scrypt', ln: 4 }, { algorithm: 'bcrypt', cost: 4 }]) {
  seen.push(await createHasher(options).hash('pw').then(() => 'hashed', (e) => ({ code: e.code, message: e.message })))
}
console.log(JSON.stringify(seen))
`

test('a runtime refusing to compile WebAssembly gets UnsupportedRuntimeError saying what runs instead', () => {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', SCRIPT], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    encoding: 'utf8',
  })
  const [argon2, scrypt, bcrypt] = JSON.parse(out)
  const refused = (why: RegExp) => ({
    code: 'ERR_AUTHLAB_UNSUPPORTED_RUNTIME',
    message: expect.stringMatching(why),
  })
  expect(argon2).toEqual(refused(/disallowed by embedder.*pass \{ module \}/))
  expect(scrypt).toEqual(refused(/hash-wasm's scrypt needs.*scrypt and bcrypt have none/))
  expect(bcrypt).toEqual(refused(/hash-wasm's bcrypt needs/))
})
