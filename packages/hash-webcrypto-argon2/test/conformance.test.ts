import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { hasherSuite } from '@authlab/conformance'
import { ARGON2ID } from '@authlab/core'
import { createHasher as nativeArgon2 } from '@authlab/hash-argon2'
import { resolveRuntime } from '@authlab/runtimes'
import { describe, expect, test } from 'vitest'
import { createHasher, hasher, isSupported, WHERE } from '../src/index.js'

const supported = await isSupported()

if (supported) {
  hasherSuite({
    test,
    factory: createHasher,
    blockingParams: { m: 65536, t: 10, p: 1 },
    peers: [nativeArgon2(ARGON2ID.testParams.cheap)],
  })
} else {
  describe(`on Node ${process.versions.node}, whose Web Crypto has no Argon2id`, () => {
    test('the package imports, and the first hash or verify is a typed error naming where it runs', async () => {
      const expected = { code: 'ERR_AUTHLAB_UNSUPPORTED_RUNTIME', required: WHERE }
      await expect(hasher.hash('correct horse battery staple')).rejects.toMatchObject(expected)
      await expect(
        hasher.verify('$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA', 'x'),
      ).rejects.toMatchObject(expected)
      expect(hasher.info).toMatchObject({ algorithm: 'argon2id', params: { m: 19456, t: 2, p: 1 } })
    })
  })
}

test('on Node 22, whose Web Crypto has no Argon2id, the first hash is the typed error, not a DOMException', () => {
  const node22 = resolveRuntime('node22')
  if (!node22.ok) throw new Error(`Node 22 cannot start: ${node22.reason}`)
  if (node22.runtime.kind !== 'process') throw new Error('node22 is not a process runtime')
  const entry = fileURLToPath(new URL('../dist/esm/index.js', import.meta.url))
  const script = `import(${JSON.stringify(entry)}).then(async (m) => {
    const supported = await m.isSupported()
    const error = await m.hasher.hash('correct horse battery staple').then(() => undefined, (e) => e)
    console.log(JSON.stringify({ supported, code: error?.code, name: error?.name, required: error?.required }))
  })`
  const run = spawnSync(node22.runtime.command, ['--input-type=module', '-e', script], { encoding: 'utf8' })
  expect(run.stderr).toBe('')
  expect(JSON.parse(run.stdout)).toEqual({
    supported: false,
    code: 'ERR_AUTHLAB_UNSUPPORTED_RUNTIME',
    name: 'UnsupportedRuntimeError',
    required: WHERE,
  })
})
