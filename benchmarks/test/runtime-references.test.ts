import { resolve } from 'node:path'
import { owaspFloor } from '@authlab/core'
import { discoverPackages, type LoadedPackage, loadPackages } from '@authlab/workspace'
import { describe, expect, test } from 'vitest'
import { absentNotes } from '../src/discover/runtime-claims.js'
import { EDGE_SCRYPT } from '../src/discover/settings.js'
import type { RuntimeGroup } from '../src/runtimes/group.js'
import { portable as hash } from '../src/suites/hash/runtimes.js'
import { portable as idsSuite } from '../src/suites/ids/runtimes.js'
import { portable as stretch } from '../src/suites/stretch/runtimes.js'

const ROOT = resolve(import.meta.dirname, '../..')

async function loaded(): Promise<LoadedPackage[]> {
  const outcomes = await loadPackages(discoverPackages(ROOT))
  return outcomes.flatMap((o) => (o.ok ? [o.pkg] : []))
}

/** The groups the named portable suites measure in `runtime`, from the packages that claim it. */
function groupsFor(
  runtime: string,
  suites: readonly ('hash' | 'ids')[],
  packages: readonly LoadedPackage[],
): RuntimeGroup[] {
  const claiming = packages.filter((pkg) => pkg.runtimes.includes(runtime as never))
  return suites.flatMap((s) => (s === 'hash' ? hash : idsSuite).groups(runtime, claiming))
}

const ids = (groups: readonly RuntimeGroup[], group: string) =>
  groups.find((g) => g.group === group)?.candidates.map((c) => c.id) ?? []

describe("a runtime's own APIs as references in its column only", () => {
  test('Bun.password argon2id and bcrypt run in Bun beside the packages, at the same settings', async () => {
    const groups = groupsFor('bun', ['hash'], await loaded())
    const argon2 = groups.find((g) => g.group === 'argon2id OWASP m=19456 t=2 p=1')
    expect(argon2?.candidates.map((c) => c.id)).toEqual(
      expect.arrayContaining(['ref:Bun.password argon2id', '@authlab/hash-node-crypto-argon2']),
    )
    expect(argon2?.candidates.find((c) => c.id === 'ref:Bun.password argon2id')?.call).toBe(
      'Bun.password.hash("correct horse battery staple", {"algorithm":"argon2id","memoryCost":19456,"timeCost":2})',
    )
    expect(ids(groups, 'bcrypt cost 10')).toContain('ref:Bun.password bcrypt')
    expect(groups.flatMap((g) => g.notes ?? [])).toEqual([])
  })

  test('elsewhere they are left out with the reason, never attempted', async () => {
    for (const runtime of ['node', 'node22', 'deno', 'chromium']) {
      const groups = groupsFor(runtime, ['hash', 'ids'], await loaded())
      const all = groups.flatMap((g) => g.candidates.map((c) => c.id))
      expect(all).not.toContain('ref:Bun.password argon2id')
      expect(all).not.toContain('ref:Bun.password bcrypt')
      const notes = groups.flatMap((g) => g.notes ?? [])
      expect(notes).toContain(`ref:Bun.password bcrypt not in ${runtime}: Bun's own API`)
    }
  })

  test('crypto.randomUUIDv7() runs where node:crypto has it (Node >= 24, Bun), with a reason elsewhere', async () => {
    const packages = await loaded()
    for (const runtime of ['node', 'node24', 'bun'])
      expect(ids(groupsFor(runtime, ['ids'], packages), 'session IDs')).toContain('ref:randomUUIDv7')
    for (const runtime of ['node22', 'deno', 'firefox']) {
      const groups = groupsFor(runtime, ['ids'], packages)
      expect(ids(groups, 'session IDs')).not.toContain('ref:randomUUIDv7')
      expect(groups[0]?.notes).toEqual([
        `ref:randomUUIDv7 not in ${runtime}: node:crypto randomUUIDv7 is in Node >= 24 and Bun`,
      ])
    }
  })
})

describe('workerd: what each package claims there, and the settings the edge advice needs', () => {
  test('a package runs only the algorithms it claims there; every other one is noted with its reason', async () => {
    const packages = await loaded()
    const groups = groupsFor('workerd', ['hash'], packages)
    const inGroup = (setting: string) => groups.find((g) => g.key.setting === setting)?.candidates ?? []
    expect(inGroup('argon2id:m=19456,t=2,p=1').map((c) => c.id)).toContain('@authlab/hash-wasm')
    for (const g of groups.filter((x) => !x.key.setting.startsWith('argon2id')))
      expect(g.candidates.map((c) => c.id)).not.toContain('@authlab/hash-wasm')
    const notes = absentNotes('workerd', packages, new Set(['hash']))
    const bcrypt = packages.find((p) => p.name === '@authlab/hash-bcrypt')
    expect(notes).toContain(`@authlab/hash-bcrypt not in workerd: ${bcrypt?.notInWorkerd}`)
    expect(notes.find((n) => n.startsWith('@authlab/hash-wasm'))).toMatch(/runs only argon2id in workerd: /)
    // Every hash package has a cell or a reason.
    const measured = new Set(groups.flatMap((g) => g.candidates.map((c) => c.id)))
    for (const p of packages.filter((x) => x.kind === 'hash'))
      expect(measured.has(p.name) || notes.some((n) => n.startsWith(`${p.name} not in workerd: `))).toBe(true)
  })

  test("scrypt is measured at OWASP's floor in every runtime as well as at better-auth's setting", async () => {
    const packages = await loaded()
    for (const runtime of ['workerd', 'bun', 'chromium']) {
      const scrypt = groupsFor(runtime, ['hash'], packages).filter((g) => g.key.setting.startsWith('scrypt:'))
      expect(scrypt.map((g) => g.key.setting)).toEqual(['scrypt:ln=14,r=16,p=1', 'scrypt:ln=14,r=8,p=5'])
    }
    expect(owaspFloor('scrypt', EDGE_SCRYPT.params).meets).toBe(true)
    expect(owaspFloor('scrypt', { ln: 14, r: 16, p: 1 }).meets).toBe(false)
  })

  test("the remote helper's group runs in workerd only, started when the group runs", async () => {
    const packages = await loaded()
    const remoteGroup = (runtime: string) =>
      stretch.groups(runtime, packages).find((g) => g.prepare !== undefined)
    expect(remoteGroup('workerd')?.baseline).toBe('@authlab/hash-scrypt')
    expect(remoteGroup('node')).toBeUndefined()
  })
})
