import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { childEnv } from '../src/child-env.mjs'
import { manifestProblems } from '../src/manifest-rules.mjs'
import { packPackages } from '../src/pack.mjs'
import { attwProblems, publintProblems } from '../src/tarball-lint.mjs'
import { REPO_ROOT, readManifest } from '../src/workspace.mjs'
import { copyWorkspace, linkWorkspaces } from '../src/workspace-copy.mjs'

// Adding a strategy must need no edit beyond the generated package. Both entries of the scaffold
// run non-interactively in a temporary copy of the workspace — `npm run new` for an ID package,
// @turbo/gen (what `turbo gen` runs) for a hash package — and the copy proves each builds, is
// publishable, passes its conformance suite, is discovered by the bench app and is a passing row of
// the store matrix.
const copy = mkdtempSync(join(tmpdir(), 'authlab-scaffold-'))
const probe = `probe${process.pid}`
const created = {
  id: { name: `@authlab/id-${probe}`, dir: `packages/id-${probe}` },
  hash: { name: `@authlab/hash-${probe}`, dir: `packages/hash-${probe}` },
}
const bin = (name: string) => join(copy, 'node_modules', '.bin', name)
const run = (command: string, args: string[]) =>
  execFileSync(command, args, {
    cwd: copy,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...childEnv(), CI: '1' },
  })

beforeAll(() => {
  copyWorkspace(copy)
  run('npm', ['run', 'new', '--', '--kind', 'id', '--name', probe, '--wraps', 'node:crypto'])
  run(bin('gen'), ['run', 'strategy', '--args', 'hash', probe, 'node:crypto'])
  // The step a user runs next is `npm install`; in the copy, link the new workspaces the same way.
  linkWorkspaces(copy)
}, 120_000)
afterAll(() => rmSync(copy, { recursive: true, force: true }))

describe('a scaffolded strategy package, with no other edit', () => {
  test('has every file the issue lists, declaring its kind', () => {
    for (const [kind, { dir }] of Object.entries(created)) {
      const manifest = JSON.parse(readFileSync(join(copy, dir, 'package.json'), 'utf8'))
      expect(manifest.authlab).toEqual({ kind })
      for (const file of ['README.md', 'tsconfig.json', 'src/index.ts', 'test/conformance.test.ts']) {
        expect(() => readFileSync(join(copy, dir, file)), `${dir}/${file}`).not.toThrow()
      }
    }
  })

  test('builds (with turbo, as `npm test` does) and typechecks', () => {
    // Everything builds, since the bench app and the store matrix load every strategy. Unchanged
    // packages come from the workspace's turbo cache (read-only: the copy's sources hash the same);
    // the new packages are cache misses and really compile.
    const cache = [`--cache-dir=${join(REPO_ROOT, '.turbo', 'cache')}`, '--cache=local:r']
    expect(() => run(bin('turbo'), ['run', 'build', ...cache, '--output-logs=errors-only'])).not.toThrow()
    for (const { dir } of Object.values(created)) {
      expect(() => run(bin('tsc'), ['-p', join(dir, 'tsconfig.json')])).not.toThrow()
    }
  }, 600_000)

  test('passes `biome ci` (lint and format) as generated', () => {
    expect(() => run(bin('biome'), ['ci', '--colors=off', created.id.dir, created.hash.dir])).not.toThrow()
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
      problems.push(...(await publintProblems(result.tarball, manifest)), ...attwProblems(result.tarball))
      problems.push(...manifestProblems(manifest, files))
    }
    expect(problems).toEqual([])
  }, 120_000)

  test('passes its conformance suite', () => {
    const output = run(bin('vitest'), ['run', created.id.dir, created.hash.dir])
    const [, passed, failed] = /^(\d+) passed, (\d+) failed/m.exec(output) ?? []
    expect(Number(failed)).toBe(0)
    expect(Number(passed)).toBeGreaterThan(10)
  }, 300_000)

  test("is discovered by the bench app's candidate list", () => {
    const script = fileURLToPath(new URL('../fixtures/discover-candidates.mjs', import.meta.url))
    const found = JSON.parse(run(process.execPath, [script, copy])) as { ids: string[]; hashers: string[] }
    expect(found.ids).toContain(created.id.name)
    expect(found.hashers).toContain(created.hash.name)
  })

  test('is a row of the store matrix, passing on the in-memory store', () => {
    // The real store-matrix test of the copy, limited to the new generator's cells on express-session's
    // MemoryStore (the server-backed stores are that test's own business, and need services).
    const cells = `^express-session MemoryStore '?${created.id.name}'? · `
    const output = run(bin('vitest'), ['run', 'apps/store-matrix', '-t', cells])
    const [, passed, failed] = /^(\d+) passed, (\d+) failed/m.exec(output) ?? []
    expect({ passed: Number(passed), failed: Number(failed) }).toEqual({ passed: 2, failed: 0 })
  }, 300_000)
})
