import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { childEnv } from '../src/child-env.mjs'
import { readManifest, workspaceDirs } from '../src/workspace.mjs'
import { copyWorkspace } from '../src/workspace-copy.mjs'

// Changesets must version packages independently (.changeset/config.json: no fixed or linked
// groups). `changeset version` runs in a copy of the workspace so nothing here is touched.
const copy = mkdtempSync(join(tmpdir(), 'authlab-release-'))
afterAll(() => rmSync(copy, { recursive: true, force: true }))

const versions = () =>
  Object.fromEntries(
    workspaceDirs(copy)
      .map(readManifest)
      .map((m) => [m.name, m.version]),
  )

test('a changeset on one strategy bumps that package only, and never a private workspace', () => {
  copyWorkspace(copy)
  // The repository's own pending changesets are not this test's subject: only the probe is versioned.
  for (const file of readdirSync(join(copy, '.changeset'))) {
    if (file.endsWith('.md') && file !== 'README.md') rmSync(join(copy, '.changeset', file))
  }
  const manifests = workspaceDirs(copy).map(readManifest)
  const dependedOn = new Set(manifests.flatMap((manifest) => Object.keys(manifest.dependencies ?? {})))
  const leaf = manifests.find((m) => m.authlab?.kind && !m.private && !dependedOn.has(m.name))
  if (!leaf) throw new Error('no published strategy package that nothing depends on')
  writeFileSync(join(copy, '.changeset', 'probe.md'), `---\n'${leaf.name}': minor\n---\n\nProbe.\n`)
  const before = versions()

  execFileSync(join(copy, 'node_modules', '.bin', 'changeset'), ['version'], {
    cwd: copy,
    stdio: 'pipe',
    env: childEnv(),
  })

  const [major, minor] = leaf.version.split('.')
  expect(versions()).toEqual({ ...before, [leaf.name]: `${major}.${Number(minor) + 1}.0` })
})
