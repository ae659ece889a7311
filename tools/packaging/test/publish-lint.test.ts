import { mkdtempSync, rmSync } from 'node:fs'
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

test('there are publishable packages to check', () => {
  expect(packages.map((pkg) => pkg.manifest.name)).toContain('@authlab/core')
})

describe.each(packages.map((pkg) => [pkg.manifest.name, pkg] as const))('%s', (name, pkg) => {
  test('publint --strict reports nothing', async () => {
    expect(await publintProblems(packedOf(name).tarball, pkg.manifest)).toEqual([])
  })

  test('are-the-types-wrong finds no problem for node10, node16 (CJS and ESM) and bundler', () => {
    expect(attwProblems(packedOf(name).tarball)).toEqual([])
  })

  test('manifest has exports (types first), files, sideEffects, engines, repository.directory, license, keywords, README, LICENSE, caret ranges', () => {
    const files = packedOf(name).files.map((file) => file.path)
    expect(manifestProblems(pkg.manifest, files)).toEqual([])
  })
})
