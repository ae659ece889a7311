import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { hasherSuite } from '@authlab/conformance'
import { ARGON2ID } from '@authlab/core'
import { createHasher as nativeArgon2 } from '@authlab/hash-argon2'
import { resolveRuntime } from '@authlab/runtimes'
import { describe, expect, test } from 'vitest'
import { createHasher, hasher, MINIMUM_NODE } from '../src/index.js'

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
const hasArgon2 = major > 24 || (major === 24 && minor >= 7)

if (hasArgon2) {
  hasherSuite({
    test,
    factory: createHasher,
    blockingParams: { m: 65536, t: 10, p: 1 },
    peers: [nativeArgon2(ARGON2ID.testParams.cheap)],
  })
} else {
  describe(`on Node ${process.versions.node}, without crypto.argon2`, () => {
    test('the package imports, and creating a hasher is a typed error naming the Node it needs', async () => {
      const expected = {
        name: 'UnsupportedRuntimeError',
        code: 'ERR_AUTHLAB_UNSUPPORTED_RUNTIME',
        required: `Node >= ${MINIMUM_NODE}`,
        message: expect.stringContaining(`Node >= ${MINIMUM_NODE}`),
      }
      expect(() => createHasher()).toThrow(expect.objectContaining(expected))
      expect(() => createHasher({ m: 19456, t: 2, p: 1 })).toThrow(expect.objectContaining(expected))
      // The ready-made default is created on first use: a rejection, not a crash at import.
      await expect(hasher.hash('correct horse battery staple')).rejects.toMatchObject(expected)
      await expect(hasher.verify('$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaA', 'x')).rejects.toMatchObject(
        expected,
      )
      expect(() => hasher.needsRehash('$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaA')).toThrow(
        expect.objectContaining(expected),
      )
      // What it is stays readable: the bench and the conformance runs learn its algorithm from it.
      expect(hasher.info).toMatchObject({ algorithm: 'argon2id', params: { m: 19456, t: 2, p: 1 } })
    })
  })
}

// The suite where crypto.argon2 exists: the Node 24 installed from the registry (tools/runtimes).
test(`the conformance suite passes on Node 24 and cross-verifies with @authlab/hash-argon2`, () => {
  const node24 = resolveRuntime('node24')
  if (!node24.ok) throw new Error(`Node 24 cannot start: ${node24.reason}`)
  if (node24.runtime.kind !== 'process') throw new Error('node24 is not a process runtime')
  const script = fileURLToPath(new URL('./node24-conformance.mjs', import.meta.url))
  const run = spawnSync(node24.runtime.command, ['--test', '--test-reporter=tap', script], {
    encoding: 'utf8',
    timeout: 240_000,
  })
  const out = `${run.stdout}\n${run.stderr}`
  const count = (label: string) => Number(new RegExp(`^# ${label} (\\d+)$`, 'm').exec(out)?.[1] ?? -1)
  expect(out).toMatch(/^# Subtest: @authlab\/hash-node-crypto-argon2: declared runsOn matches/m)
  expect({ status: run.status, fail: count('fail') }, out).toEqual({ status: 0, fail: 0 })
  expect(count('pass')).toBeGreaterThanOrEqual(13)
}, 300_000)

test('package.json declares the Node it needs as "authlab.node", and installs on every Node the workspace supports', async () => {
  const { readFile } = await import('node:fs/promises')
  const manifest = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'))
  // The bench, the runtime conformance runs and the packaging checks read "authlab.node" to skip it on
  // an older Node; "engines.node" stays the workspace's, so an install on Node 20 does not warn.
  expect(manifest.authlab.node).toBe(`>=${MINIMUM_NODE}`)
  expect(manifest.engines.node).toBe('>=20.19')
})
