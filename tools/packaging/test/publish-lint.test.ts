import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { publint } from 'publint'
import { formatMessage } from 'publint/utils'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { binPath } from '../src/bin.mjs'
import { manifestProblems } from '../src/manifest-rules.mjs'
import { packPackages } from '../src/pack.mjs'
import { publishablePackages } from '../src/workspace.mjs'

// Every check runs on the real tarball `npm pack` makes, so it sees exactly what npm would publish.
const packages = publishablePackages()
const attwBin = binPath('@arethetypeswrong/cli', 'attw')
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
    const tarball = readFileSync(packedOf(name).tarball)
    const { messages } = await publint({
      strict: true,
      pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) },
    })
    expect(messages.map((message) => formatMessage(message, pkg.manifest, { color: false }))).toEqual([])
  })

  test('are-the-types-wrong finds no problem for node10, node16 (CJS and ESM) and bundler', () => {
    // --no-definitely-typed: our packages ship their own types, and the check stays offline.
    const attw = spawnSync(
      process.execPath,
      [attwBin, packedOf(name).tarball, '--no-definitely-typed', '--format', 'ascii', '--no-color'],
      { encoding: 'utf8' },
    )
    expect({ status: attw.status, output: attw.status === 0 ? '' : attw.stdout + attw.stderr }).toEqual({
      status: 0,
      output: '',
    })
  })

  test('manifest has exports (types first), files, sideEffects, engines, repository.directory, license, keywords, README', () => {
    const files = packedOf(name).files.map((file) => file.path)
    expect(manifestProblems(pkg.manifest, files)).toEqual([])
  })
})
