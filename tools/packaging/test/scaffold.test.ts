import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { childEnv } from '../src/child-env.mjs'
import { manifestProblems } from '../src/manifest-rules.mjs'
import { packPackages } from '../src/pack.mjs'
import { attwProblems, publintProblems } from '../src/tarball-lint.mjs'
import { REPO_ROOT, readManifest, workspaceDirs } from '../src/workspace.mjs'
import { copyWorkspace, linkWorkspaces } from '../src/workspace-copy.mjs'

// Adding a strategy must need no edit beyond the generated package. Both entries of the scaffold
// run non-interactively in a temporary copy of the workspace — `npm run new` for an ID package,
// @turbo/gen (what `turbo gen` runs) for a hash package — and the copy proves each builds, is
// publishable, passes its conformance suite, is discovered by the bench app and is a passing row of
// the store matrix. A new algorithm (PBKDF2-HMAC-SHA512, `npm run new -- --algorithm`, then the
// fixture's profile and vectors as a user would write them) shares the copy and must add nothing but
// its own package, profile included: no edit to core, conformance or the bench.
const copy = mkdtempSync(join(tmpdir(), 'authlab-scaffold-'))
const probe = `probe${process.pid}`
const created = {
  id: { name: `@authlab/id-${probe}`, dir: `packages/id-${probe}` },
  hash: { name: `@authlab/hash-${probe}`, dir: `packages/hash-${probe}` },
  algorithm: { name: '@authlab/hash-pbkdf2-sha512', dir: 'packages/hash-pbkdf2-sha512' },
}
const fixture = fileURLToPath(new URL('../fixtures/pbkdf2-sha512', import.meta.url))

/** Every source file of the copy with its content hash (installs, builds and caches left out). */
function snapshot(): Map<string, string> {
  const files = readdirSync(copy, { recursive: true, withFileTypes: true }).filter(
    (entry) =>
      entry.isFile() && !/(^|\/)(node_modules|dist|\.turbo)(\/|$)/.test(relative(copy, entry.parentPath)),
  )
  return new Map(
    files.map((entry) => {
      const file = join(entry.parentPath, entry.name)
      return [relative(copy, file), createHash('sha1').update(readFileSync(file)).digest('hex')]
    }),
  )
}
let before: Map<string, string>
let after: Map<string, string>
const bin = (name: string) => join(copy, 'node_modules', '.bin', name)
const run = (command: string, args: string[], env: Record<string, string> = {}) =>
  execFileSync(command, args, {
    cwd: copy,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...childEnv(), CI: '1', ...env },
  })

beforeAll(() => {
  copyWorkspace(copy)
  before = snapshot()
  run('npm', ['run', 'new', '--', '--kind', 'id', '--name', probe, '--wraps', 'node:crypto'])
  run(bin('gen'), ['run', 'strategy', '--args', 'hash', probe, 'node:crypto'])
  const newAlgorithm = ['--kind', 'hash', '--name', 'pbkdf2-sha512', '--wraps', 'node:crypto']
  run('npm', ['run', 'new', '--', ...newAlgorithm, '--algorithm', 'pbkdf2-sha512'])
  // The user's edits: the algorithm's real profile and published vectors, and the kdf's digest.
  cpSync(fixture, join(copy, created.algorithm.dir), { recursive: true })
  const index = join(copy, created.algorithm.dir, 'src/index.ts')
  writeFileSync(index, readFileSync(index, 'utf8').replace("length, 'sha256')", "length, 'sha512')"))
  after = snapshot()
  // The step a user runs next is `npm install`; in the copy, link the new workspaces the same way.
  linkWorkspaces(copy)
}, 120_000)
afterAll(() => rmSync(copy, { recursive: true, force: true }))

describe('a scaffolded strategy package, with no other edit', () => {
  test('adds only the new packages (a new algorithm: its package, profile included), changing no file', () => {
    const changed = [...before].filter(([file, hash]) => after.get(file) !== hash).map(([file]) => file)
    const added = [...after.keys()].filter((file) => !before.has(file))
    expect(changed).toEqual([])
    const outside = added.filter(
      (file) => !Object.values(created).some(({ dir }) => file.startsWith(`${dir}/`)),
    )
    expect(outside).toEqual([])
    expect(added).toContain(`${created.algorithm.dir}/src/profile.ts`)
    expect(added.filter((file) => file.endsWith('/src/profile.ts'))).toHaveLength(1)
  })

  test('has every file a strategy package needs, declaring its kind', () => {
    for (const { dir } of Object.values(created)) {
      const manifest = JSON.parse(readFileSync(join(copy, dir, 'package.json'), 'utf8'))
      expect(manifest.authlab).toEqual({
        kind: dir.startsWith('packages/id-') ? 'id' : 'hash',
        // The starter uses node:crypto, so it claims the server runtimes and workerd (nodejs_compat)
        // and says why not browsers.
        runtimes: ['node', 'node24', 'node22', 'bun', 'deno', 'workerd'],
        notInBrowsers: expect.stringContaining('node:crypto'),
      })
      for (const file of ['README.md', 'tsconfig.json', 'src/index.ts', 'test/conformance.test.ts']) {
        expect(() => readFileSync(join(copy, dir, file)), `${dir}/${file}`).not.toThrow()
      }
    }
  })

  test('builds and typechecks (with `npm run build`, as `npm test` does)', () => {
    // Everything builds, since the bench app and the store matrix load every strategy. Unchanged
    // workspaces come from the workspace's own build (npm test builds before it tests): their dist/
    // and build keys are copied, and scripts/build-workspace.mjs skips a workspace only when the
    // copy's inputs hash the same. The new packages are not in the keys and really compile.
    for (const dir of workspaceDirs(REPO_ROOT)) {
      const dist = join(dir, 'dist')
      if (existsSync(dist)) cpSync(dist, join(copy, relative(REPO_ROOT, dist)), { recursive: true })
    }
    const keys = join(REPO_ROOT, 'node_modules/.cache/authlab-build.json')
    mkdirSync(join(copy, 'node_modules/.cache'), { recursive: true })
    if (existsSync(keys)) cpSync(keys, join(copy, 'node_modules/.cache/authlab-build.json'))
    const output = run('npm', ['run', 'build'])
    for (const { name } of Object.values(created)) {
      expect(output).toContain(`${name}: built and typechecked`)
    }
    for (const { dir } of Object.values(created)) {
      expect(existsSync(join(copy, dir, 'dist/esm/index.js')), dir).toBe(true)
      expect(existsSync(join(copy, dir, 'dist/cjs/index.js')), dir).toBe(true)
    }
  }, 600_000)

  test('passes `biome ci` (lint and format) as generated', () => {
    const dirs = Object.values(created).map(({ dir }) => dir)
    expect(() => run(bin('biome'), ['ci', '--colors=off', ...dirs])).not.toThrow()
  })

  test('is publishable as generated: publint --strict, attw and the manifest rules are clean', async () => {
    const generated = Object.values(created).map(({ dir }) => ({
      dir: join(copy, dir),
      manifest: readManifest(join(copy, dir)),
    }))
    const problems: string[] = []
    for (const result of packPackages(generated, { destination: copy, root: copy })) {
      const { manifest } = generated.find((pkg) => pkg.manifest.name === result.name) ?? {}
      if (!result.tarball || !manifest) throw new Error(`npm pack produced no tarball for ${result.name}`)
      const files = result.files.map((file) => file.path)
      problems.push(
        ...(await publintProblems(result.tarball, manifest)),
        ...(await attwProblems(result.tarball)),
      )
      problems.push(...manifestProblems(manifest, files))
    }
    expect(problems).toEqual([])
  }, 120_000)

  test('passes its conformance suite', () => {
    const output = run(bin('vitest'), ['run', ...Object.values(created).map(({ dir }) => dir)])
    const [, passed, failed] = /^(\d+) passed, (\d+) failed/m.exec(output) ?? []
    expect(Number(failed)).toBe(0)
    expect(Number(passed)).toBeGreaterThan(10)
  }, 300_000)

  test("is discovered by the bench app's candidate list", () => {
    const script = fileURLToPath(new URL('../fixtures/discover-candidates.mjs', import.meta.url))
    const found = JSON.parse(run(process.execPath, [script, copy])) as { ids: string[]; hashers: string[] }
    expect(found.ids).toContain(created.id.name)
    expect(found.hashers).toEqual(expect.arrayContaining([created.hash.name, created.algorithm.name]))
  })

  test("the new algorithm's profile is found by the registry once its package loads", () => {
    const script = fileURLToPath(new URL('../fixtures/registry-algorithm.mjs', import.meta.url))
    const found = JSON.parse(run(process.execPath, [script, copy, created.algorithm.name]))
    expect(found).toMatchObject({
      kind: 'hash',
      algorithm: 'pbkdf2-sha512',
      defaults: { iterations: 210_000 },
      caps: { iterations: 5_000_000 },
      budget: { units: 2_000_000 },
      bench: [{ params: { iterations: 210_000 } }],
    })
  })

  test('is a row of the store matrix, passing on the in-memory store', () => {
    // The real store-matrix test of the copy, limited to the new generator's cells on express-session's
    // MemoryStore (the server-backed stores are that test's own business, and need services).
    // Vitest 5 joins a test's name to its describe blocks' with ' > ' for -t.
    const cells = `^express-session MemoryStore > '?${created.id.name}'? · `
    // Only the MemoryStore file: collecting the other store files (services, races, faults) took half a minute.
    // AUTHLAB_MATRIX_IDS runs the new generator's cells only, not every other generator's as well.
    const output = run(bin('vitest'), ['run', 'apps/store-matrix/test/stores/memory.test.ts', '-t', cells], {
      AUTHLAB_MATRIX_IDS: created.id.name,
    })
    const [, passed, failed] = /^(\d+) passed, (\d+) failed/m.exec(output) ?? []
    expect({ passed: Number(passed), failed: Number(failed) }, output.slice(-3000)).toEqual({
      passed: 2,
      failed: 0,
    })
  }, 300_000)

  test('`--js-only`, the build `npm run bench` runs, writes the JavaScript the full build wrote', () => {
    // Last: it rewrites the copy's build keys. The new packages, core and a .cts file, ESM and CommonJS.
    const dirs = [...Object.values(created).map(({ dir }) => dir), 'packages/core', 'packages/hash-worker']
    const javascript = () =>
      new Map(
        dirs.flatMap((dir) =>
          readdirSync(join(copy, dir, 'dist'), { recursive: true, encoding: 'utf8' })
            .filter((file) => /\.[cm]?js$/.test(file))
            .map((file) => [`${dir}/${file}`, readFileSync(join(copy, dir, 'dist', file), 'utf8')]),
        ),
      )
    const full = javascript()
    expect(full.size).toBeGreaterThan(20)
    expect([...full.keys()]).toContain('packages/hash-worker/cjs/location.cjs')
    const names = [...Object.values(created).map(({ name }) => name), '@authlab/hash-worker']
    const output = run('node', ['scripts/build-workspace.mjs', '--js-only', '--force', ...names])
    for (const name of names) expect(output).toContain(`${name}: transpiled`)
    expect(javascript()).toEqual(full)
  }, 120_000)
})
