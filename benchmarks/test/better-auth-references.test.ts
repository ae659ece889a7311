import { createRequire } from 'node:module'
import { describe, expect, test } from 'vitest'
import { filterCandidates, loadCandidates } from '../src/discover/candidates.js'
import { HASH_REFERENCES } from '../src/discover/hash-references.js'
import { ID_REFERENCES } from '../src/discover/references.js'
import { costSettings, instantiate } from '../src/discover/settings.js'

const ROOT = new URL('../..', import.meta.url).pathname
const betterAuthPassword = createRequire(import.meta.url)('@better-auth/utils/password') as {
  verifyPassword(hash: string, password: string): Promise<boolean>
}

describe("better-auth's defaults as bench references", () => {
  test("the session-token reference is better-auth's generateId(32): 32 of [a-zA-Z0-9], about 190 bits", () => {
    const candidate = ID_REFERENCES.find((c) => c.id === 'ref:better-auth')
    const generate = candidate?.create()
    expect(generate?.info.entropyBits).toBeCloseTo(190.5, 1)
    const ids = Array.from({ length: 2000 }, () => generate?.() ?? '')
    expect(ids.every((id) => /^[a-zA-Z0-9]{32}$/.test(id))).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
    // All 62 characters occur: not a hex or base36 stand-in.
    expect(new Set(ids.join('')).size).toBe(62)
  })

  test("the hasher reference writes better-auth's saltHex:keyHex, which better-auth itself verifies", async () => {
    const hasher = HASH_REFERENCES[0]?.create()
    const stored = (await hasher?.hash('correct horse battery staple')) ?? ''
    expect(stored).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/)
    expect(await betterAuthPassword.verifyPassword(stored, 'correct horse battery staple')).toBe(true)
    expect(await hasher?.verify(stored, 'correct horse battery staple')).toBe(true)
    expect(await hasher?.verify(stored, 'correct horse battery stapler')).toBe(false)
    expect(hasher?.info).toMatchObject({
      algorithm: 'scrypt',
      runsOn: 'threadpool',
      params: { ln: 14, r: 16 },
    })
  })

  test('it runs in the scrypt setting of its own parameters and no other, and takes no options', () => {
    const candidate = HASH_REFERENCES[0]
    if (!candidate) throw new Error('no better-auth hasher reference')
    const runs = costSettings().filter((setting) => instantiate(candidate, setting) !== undefined)
    expect(runs.map((s) => s.label)).toEqual(['scrypt better-auth N=2^14 r=16 p=1'])
    expect(runs[0]?.quick).toBe(true)
    expect(() => candidate.create({ ln: 15 })).toThrow(
      expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_OPTION' }),
    )
  })

  test('--filter better keeps both references, and the http server processes find them by id', async () => {
    const { candidates } = await loadCandidates(ROOT, { only: new Set(['@authlab/hash-scrypt']) })
    const kept = filterCandidates(candidates, 'better')
    expect(kept.ids.map((c) => c.id)).toContain('ref:better-auth')
    expect(kept.hashers.map((c) => c.id)).toContain('ref:better-auth-password')
    // References come after the packages: the http suite's ids servers use the first hasher.
    const order = candidates.hashers.map((c) => c.id)
    expect(order[0]).toBe('@authlab/hash-scrypt')
    expect(order.indexOf('ref:better-auth-password')).toBeGreaterThan(0)
    expect(candidates.ids.find((c) => c.id === 'ref:randomUUID')?.label).toMatch(
      /Auth\.js, koa, h3, hono-sessions/,
    )
  })
})
