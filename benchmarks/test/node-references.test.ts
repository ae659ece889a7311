import { resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadCandidates } from '../src/discover/candidates.js'
import { createArgon2SyncHasher } from '../src/discover/hash-references.js'
import { createRandomUuidV7Reference } from '../src/discover/references.js'

const ROOT = resolve(import.meta.dirname, '..', '..')
const CHEAP = { m: 256, t: 2, p: 1 }
// RFC 9562 §5.7: version 7, variant 10xx.
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe("Node's own crypto as bench references", () => {
  test('ref:randomUUIDv7 makes UUID v7s whose first 48 bits are the time, and says so in its label', () => {
    const generate = createRandomUuidV7Reference()
    const before = Date.now()
    const id = generate()
    const after = Date.now()
    expect(id).toMatch(UUID_V7)
    const stamp = Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16)
    expect(stamp).toBeGreaterThanOrEqual(before)
    expect(stamp).toBeLessThanOrEqual(after)
    expect(generate.info.entropyBits).toBe(74)
    expect(generate.info.displayName).toContain('74 random bits + ms timestamp')
    expect(generate.info.randomness).toContain('tells anyone holding the cookie when the session began')
  })

  test("ref:randomUUIDv7 can be created again and again, and leaves Node's own function as it was", async () => {
    const nodeCrypto = await import('node:crypto')
    const first = createRandomUuidV7Reference()
    const second = createRandomUuidV7Reference()
    expect(second).not.toBe(first)
    expect(second()).toMatch(UUID_V7)
    expect(Object.hasOwn(nodeCrypto.randomUUIDv7, 'info')).toBe(false)
  })

  test('ref:crypto.argon2Sync and the async package verify each other, the sync one on the main thread', async () => {
    const { createHasher } = await import('../../packages/hash-node-crypto-argon2/src/index.js')
    const sync = createArgon2SyncHasher(CHEAP)
    const async_ = createHasher(CHEAP)
    expect(sync.info).toMatchObject({ algorithm: 'argon2id', params: CHEAP, runsOn: 'main-thread' })
    expect(await async_.verify(await sync.hash('pw'), 'pw')).toBe(true)
    expect(await sync.verify(await async_.hash('pw'), 'pw')).toBe(true)
    expect(await sync.verify(await async_.hash('pw'), 'other')).toBe(false)
  })

  test('the built-in argon2, async and sync, are also candidates at 64 MiB as their defaults', async () => {
    const { candidates, skipped } = await loadCandidates(ROOT, {
      only: new Set(['@authlab/hash-node-crypto-argon2']),
    })
    expect(skipped).toEqual([])
    const ids = candidates.hashers.map((c) => c.id)
    expect(ids).toEqual(
      expect.arrayContaining([
        '@authlab/hash-node-crypto-argon2',
        'ref:crypto.argon2Sync',
        '@authlab/hash-node-crypto-argon2 (m=65536 t=2 p=1)',
        'ref:crypto.argon2Sync (m=65536 t=2 p=1)',
      ]),
    )
    for (const id of ['@authlab/hash-node-crypto-argon2', 'ref:crypto.argon2Sync']) {
      const larger = candidates.hashers.find((c) => c.id === `${id} (m=65536 t=2 p=1)`)
      const hasher = larger?.create()
      expect(hasher?.info.params).toEqual({ m: 65536, t: 2, p: 1 })
      expect(hasher?.info.displayName).toMatch(/ m=65536 t=2 p=1$/)
      // Not a candidate in the cost-equalised settings: the original runs those.
      expect(larger?.optionsFor('argon2id', { m: 19456, t: 2, p: 1 })).toBeUndefined()
    }
    const sync = candidates.hashers.find((c) => c.id === 'ref:crypto.argon2Sync')
    expect(sync?.optionsFor('argon2id', { m: 65536, t: 2, p: 1 })).toEqual({ m: 65536, t: 2, p: 1 })
    expect(sync?.optionsFor('bcrypt', { cost: 10 })).toBeUndefined()
  })

  test('ref:randomUUIDv7 is an ids candidate here (Node >= 24)', async () => {
    const { candidates } = await loadCandidates(ROOT, { only: new Set([]) })
    expect(candidates.ids.map((c) => c.id)).toContain('ref:randomUUIDv7')
  })
})
