import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { manifestProblems } from '../src/manifest-rules.mjs'
import { packPackages } from '../src/pack.mjs'
import { attwProblems, publintProblems } from '../src/tarball-lint.mjs'
import { publishablePackages } from '../src/workspace.mjs'

// Every check runs on the real tarball `npm pack` makes, so it sees exactly what npm would publish.
const packages = publishablePackages()
const destination = mkdtempSync(join(tmpdir(), 'authlab-lint-'))
let packed: ReturnType<typeof packPackages> = []

beforeAll(() => {
  packed = packPackages(packages, { destination })
})
afterAll(() => rmSync(destination, { recursive: true, force: true }))

function packedOf(name: string) {
  const result = packed.find((entry) => entry.name === name)
  if (!result?.tarball) throw new Error(`npm pack produced no tarball for ${name}`)
  return { ...result, tarball: result.tarball }
}

test('attw in this process still fails a package whose types are wrong (ESM types for require)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'authlab-attw-'))
  try {
    const files = {
      'package.json': JSON.stringify({
        name: 'broken-types',
        version: '1.0.0',
        type: 'module',
        exports: { '.': { types: './index.d.ts', import: './index.js', require: './index.cjs' } },
      }),
      'index.js': 'export const x = 1\n',
      'index.cjs': 'exports.x = 1\n',
      'index.d.ts': 'export declare const x: number\n',
    }
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text)
    const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], {
      cwd: dir,
      encoding: 'utf8',
    }).trim()
    expect((await attwProblems(join(dir, tarball))).join('\n')).toMatch(/^attw: FalseESM /)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('there are publishable packages to check', () => {
  expect(packages.map((pkg) => pkg.manifest.name)).toContain('@authlab/core')
})

describe.each(packages.map((pkg) => [pkg.manifest.name, pkg] as const))('%s', (name, pkg) => {
  test('publint --strict reports nothing', async () => {
    expect(await publintProblems(packedOf(name).tarball, pkg.manifest)).toEqual([])
  })

  test('are-the-types-wrong finds no problem for node10, node16 (CJS and ESM) and bundler', async () => {
    expect(await attwProblems(packedOf(name).tarball)).toEqual([])
  })

  test('manifest has exports (types first), files, sideEffects, engines, repository.directory, license, keywords, README, LICENSE, caret ranges', () => {
    const files = packedOf(name).files.map((file) => file.path)
    expect(manifestProblems(pkg.manifest, files)).toEqual([])
  })
})
