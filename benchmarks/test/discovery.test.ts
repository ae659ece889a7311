import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { discoverPackages, type LoadedPackage, loadPackages } from '@authlab/workspace'
import { describe, expect, test } from 'vitest'
import {
  assembleCandidates,
  filterCandidates,
  loadCandidateFile,
  loadCandidates,
  rebuildIdCandidate,
} from '../src/discover/candidates.js'
import { addPackage, tempWorkspace } from './fixtures.js'

const REPO_ROOT = resolve(import.meta.dirname, '..', '..')

describe('discovery by declared metadata', () => {
  test('a temporary strategy package added to a workspace is found, with no list to edit', async () => {
    const root = tempWorkspace()
    const found = discoverPackages(root)
    expect(found.map((p) => [p.name, p.kind, p.version])).toEqual([
      ['@tmp/hash-unbuilt', 'hash', '1.2.3'],
      ['@tmp/id-temporary', 'id', '1.2.3'],
    ])
    const loaded = await loadPackages(found)
    const unbuilt = loaded.find((o) => !o.ok)
    expect(unbuilt).toMatchObject({
      ok: false,
      name: '@tmp/hash-unbuilt',
      reason: expect.stringMatching(/^not built/),
    })
    const packages = loaded.flatMap((o): LoadedPackage[] => (o.ok ? [o.pkg] : []))
    const { candidates } = assembleCandidates(packages, root)
    const temporary = candidates.ids.find((c) => c.id === '@tmp/id-temporary')
    expect(temporary?.label).toBe('temporary counter')
    expect(temporary?.create()()).toHaveLength(32)
  })

  test('an invalid kind is a typed error naming the file', () => {
    const root = tempWorkspace()
    addPackage(root, 'bad', { name: '@tmp/bad', authlab: { kind: 'teapot' } })
    expect(() => discoverPackages(root)).toThrow(
      expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_OPTION' }),
    )
  })

  test('a package without the conventional factory is skipped with a reason, not dropped silently', () => {
    const pkg = {
      name: '@tmp/x',
      version: '1.0.0',
      kind: 'id',
      dir: '/x',
      dependencies: {},
      runtimes: ['node'],
      notInBrowsers: 'a test fixture',
      notInWorkerd: 'a test fixture',
      exports: {},
    } as const
    expect(assembleCandidates([pkg], '/').skipped).toEqual([
      { name: '@tmp/x', reason: expect.stringContaining('createIdGenerator') },
    ])
  })

  test('the real workspace: every package declaring a kind is discovered', () => {
    const names = discoverPackages(REPO_ROOT).map((p) => p.name)
    expect(names).toContain('@authlab/id-random-bytes')
    const declared = JSON.parse(
      readFileSync(join(REPO_ROOT, 'packages/id-random-bytes/package.json'), 'utf8'),
    )
    expect(declared.authlab.kind).toBe('id')
  })
})

describe('--filter', () => {
  const create = () => {
    throw new Error('not called')
  }
  const source = { kind: 'reference' } as const
  const candidates = {
    ids: [
      { id: 'ref:randomUUID', label: 'crypto.randomUUID() [ref]', create, source },
      { id: 'ref:fastify-session', label: "@fastify/session's default idGenerator [ref]", create, source },
      { id: '@authlab/id-fast', label: 'authlab fast', create, source },
      { id: '@authlab/id-nanoid', label: 'nanoid', create, source },
    ],
    hashers: [
      {
        id: '@authlab/hash-bcryptjs',
        label: 'bcrypt (pure JS)',
        create,
        optionsFor: () => undefined,
        source,
      },
    ],
    stretch: [],
  }

  test('keeps matching candidates (by name or label, any case) and every baseline', () => {
    const kept = filterCandidates(candidates, 'FAST')
    expect(kept.ids.map((c) => c.id)).toEqual(['ref:randomUUID', 'ref:fastify-session', '@authlab/id-fast'])
    expect(kept.hashers).toEqual([])
  })

  test('a filter matching nothing is a typed error listing the candidates', () => {
    expect(() => filterCandidates(candidates, 'zzz')).toThrow(/matches no candidate.*id-nanoid/)
  })
})

describe('--candidate: a user module beside the packages', () => {
  test('a module exporting createIdGenerator is a candidate keyed file:<name>, rebuilt by a measuring child', async () => {
    const root = tempWorkspace()
    const file = join(root, 'my-generator.mjs')
    writeFileSync(
      file,
      `export function createIdGenerator() {
  const generate = () => 'm'.repeat(32)
  generate.info = { name: 'mine', displayName: 'my generator', length: 32 }
  return generate
}
`,
    )
    const { candidates } = await loadCandidates(root, { files: [file] })
    const mine = candidates.ids.find((c) => c.id === 'file:my-generator.mjs')
    expect(mine).toMatchObject({ label: 'my generator', source: { kind: 'file', file } })
    const rebuilt = await rebuildIdCandidate('file:my-generator.mjs', mine?.source ?? { kind: 'reference' })
    expect(rebuilt.create()()).toBe('m'.repeat(32))
    const pkg = await rebuildIdCandidate('@tmp/id-temporary', { kind: 'package', root })
    expect(pkg.label).toBe('temporary counter')
  })

  test('a module with neither factory is a typed error', async () => {
    const file = join(tempWorkspace(), 'nothing.mjs')
    writeFileSync(file, 'export const x = 1\n')
    await expect(loadCandidateFile(file)).rejects.toMatchObject({ code: 'ERR_AUTHLAB_INVALID_OPTION' })
  })
})

test('a strategy for a newer Node is recorded as skipped with the reason on an older one, not measured', async () => {
  const name = '@authlab/hash-node-crypto-argon2'
  const { candidates, skipped } = await loadCandidates(REPO_ROOT, { only: new Set([name]) })
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
  if (major > 24 || (major === 24 && minor >= 7)) {
    expect(candidates.hashers.map((c) => c.id)).toContain(name)
  } else {
    expect(candidates.hashers.map((c) => c.id)).not.toContain(name)
    expect(skipped).toEqual([{ name, reason: expect.stringMatching(/^needs Node >=24\.7/) }])
  }
})
