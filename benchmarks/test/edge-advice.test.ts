import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { costLines } from '../src/advice/cost-lines.js'
import { type AdvisedSetting, belowFloor } from '../src/advice/floor.js'
import { choosePlatform, PLATFORMS, workersRefuse } from '../src/advice/platforms.js'
import { type RuntimeCost, remoteWayOut, runtimeCosts } from '../src/advice/runtime-costs.js'
import { runtimeClaims } from '../src/discover/runtime-claims.js'
import { EDGE_REMOTE } from '../src/discover/settings.js'
import { settingKey } from '../src/model/keys.js'
import { PER_CALL, type ResultsFile, type Row } from '../src/model/types.js'
import { adviceRows } from '../src/report/advice-table.js'
import { costCells } from '../src/report/costs-table.js'
import { betterAuthFloorLine, platformNotes, platformRows } from '../src/report/platform-table.js'
import { figureBlocks } from '../src/report/readme-blocks.js'
import { readResults } from '../src/stats/decide.js'
import { ROOT } from './fixtures.js'

const README = readFileSync(join(ROOT, 'README.md'), 'utf8')
const advice = figureBlocks(README).find((b) => b.kind === 'advice')
const runs = (advice?.files ?? []).map((f) => readResults(join(ROOT, f)))
/** The README's runs but its cross-runtime one: the fixture below stands in for that, with figures of its own. */
const nodeRuns = runs.filter((r) => (r.environment.runtimes ?? []).length === 0)
const claims = runtimeClaims(ROOT)

/** A hash row of a cross-runtime run: a fixture for the advice's rules, not a measurement. */
function row(runtime: string, candidate: string, params: Record<string, number>, cpuMs: number): Row {
  const [algorithm] = Object.keys(params).includes('cost')
    ? ['bcrypt']
    : 'iterations' in params
      ? ['pbkdf2-sha256']
      : 'm' in params
        ? ['argon2id']
        : ['scrypt']
  return {
    suite: 'hash',
    runtime,
    group: 'fixture',
    candidate,
    key: { setting: settingKey(algorithm as string, params), operation: 'hash' },
    label: candidate,
    value: 1000 / cpuMs,
    unit: runtime === 'workerd' ? 'hashes/CPU-s' : 'hashes/s',
    higherIsBetter: true,
    ratios: [],
    details: { [PER_CALL.cpuMs]: cpuMs, [PER_CALL.wallMs]: cpuMs },
    flags: [],
  }
}

/** A cross-runtime run holding `rows` (the stretch ones included), its environment borrowed. */
function acrossRun(rows: Row[]): ResultsFile {
  const base = runs.at(-1) as ResultsFile
  const ids = [...new Set(rows.map((r) => r.runtime as string))]
  return {
    ...base,
    environment: { ...base.environment, runtimes: ids.map((id) => ({ id, name: id, version: '0' })) },
    suites: ['hash', 'stretch'].map((name) => ({
      name,
      description: '',
      method: '',
      processRounds: false,
      notes: [],
      failures: [],
      rows: rows.filter((r) => r.suite === name),
    })),
  }
}

const ARGON2 = { m: 19456, t: 2, p: 1 }
const SCRYPT_FLOOR = { ln: 14, r: 8, p: 5 }
const fixture = acrossRun([
  row('workerd', '@authlab/hash-wasm', ARGON2, 35),
  row('workerd', '@authlab/hash-scrypt', SCRYPT_FLOOR, 140),
  // Cheaper per guess than every floor setting here: only the floor keeps it out.
  row('workerd', '@authlab/hash-scrypt', { ln: 14, r: 16, p: 1 }, 40),
  row('workerd', '@authlab/hash-pbkdf2', { iterations: 600_000 }, 62),
  row('bun', '@authlab/hash-argon2', ARGON2, 9),
  row('bun', 'ref:Bun.password argon2id', ARGON2, 20),
  {
    ...row('workerd', EDGE_REMOTE.local, SCRYPT_FLOOR, 140),
    suite: 'stretch',
    key: { setting: settingKey('scrypt', SCRYPT_FLOOR), operation: 'derive' },
  },
  {
    ...row('workerd', EDGE_REMOTE.remote, SCRYPT_FLOOR, 0.3),
    suite: 'stretch',
    key: { setting: settingKey('scrypt', SCRYPT_FLOOR), operation: 'derive' },
    details: { [PER_CALL.cpuMs]: 0.3, [PER_CALL.wallMs]: 2.6 },
  },
])

describe('no advice below OWASP floor', () => {
  const advised = () => [
    ...adviceRows(runs),
    ...platformRows([...nodeRuns, fixture]).map((r) => ({ need: r.need, advises: r.advises })),
  ]

  test('every setting the advice names meets the floor, and the check fails on a row set below it', () => {
    const rows = advised()
    expect(rows.flatMap((r) => r.advises).length).toBeGreaterThan(2)
    expect(belowFloor(rows)).toEqual([])
    // The same check on a deliberately weakened row: argon2id at 8 MiB, one pass; better-auth's scrypt.
    const weak: AdvisedSetting[] = [
      { algorithm: 'argon2id', params: { m: 8192, t: 1, p: 1 } },
      { algorithm: 'scrypt', params: { ln: 14, r: 16, p: 1 } },
    ]
    const weakened = rows.map((r, i) => (i === 3 ? { ...r, advises: weak } : r))
    expect(belowFloor(weakened)).toHaveLength(2)
    expect(belowFloor(weakened)[1]).toMatch(/N·r·p = 262144\) is below every OWASP scrypt row/)
  })

  test("the README states better-auth's scrypt is below the floor, with the numbers", () => {
    const line = betterAuthFloorLine(runs, 'argon2id m=19456 t=2 p=1')
    expect(line).toMatch(/N=2\^14 r=16 p=1 does N·r·p = 262,144/)
    expect(line).toMatch(/need 655,360 .*2\.50× less work/)
    expect(line).toMatch(/moves each user to argon2id m=19456 t=2 p=1/)
  })
})

describe('advice per platform', () => {
  const costs = runtimeCosts([fixture])
  const platform = (name: string) => PLATFORMS.find((p) => p.name === name) as (typeof PLATFORMS)[number]

  test('Workers Free: nothing at the floor fits 10 ms; the way out is measured and named', () => {
    const free = choosePlatform(platform('Cloudflare Workers Free'), costs)
    expect(free.kind).toBe('nothing-fits')
    const notes = platformNotes([fixture]).join('\n')
    expect(notes).toMatch(/\*\*Cloudflare Workers Free\*\*: nothing at OWASP's floor fits in 10 ms of CPU\./)
    expect(notes).toMatch(/spends 0\.300 ms of CPU per login .* 2\.60 ms on loopback; a real deployment adds/)
    expect(remoteWayOut([fixture])?.scryptWallMs).toBe(140)
  })

  test('Workers Paid: the best trade among floor settings it accepts; PBKDF2 above 100,000 never, and why', () => {
    const paid = choosePlatform(platform('Cloudflare Workers Paid'), costs)
    expect(paid.kind).toBe('fits')
    if (paid.kind !== 'fits') return
    expect(paid.pick.cost.algorithm).not.toMatch(/pbkdf2/)
    expect(paid.refused.join()).toMatch(
      /refuses PBKDF2 above 100,000 iterations.*workerd\/issues\/1346.*local workerd does not/,
    )
    // better-auth's scrypt runs there and is cheaper, but it is below the floor: never picked.
    expect(paid.pick.cost.paramsText).not.toBe('scrypt ln=14 r=16 p=1')
    const pbkdf2 = costs.find((c) => c.algorithm === 'pbkdf2-sha256') as RuntimeCost
    expect(workersRefuse({ ...pbkdf2, params: { iterations: 100_000 } })).toBeUndefined()
    expect(workersRefuse({ ...pbkdf2, algorithm: 'scrypt', params: { ln: 17, r: 8, p: 2 } })).toMatch(/2\^20/)
  })

  test('a platform with no measurement says so; one with no limit fits', () => {
    expect(choosePlatform(platform('Deno Deploy'), costs).kind).toBe('not-measured')
    const bun = choosePlatform(platform('Bun on a server'), costs)
    expect(bun.kind === 'fits' && bun.pick.cost.candidate).toBe('@authlab/hash-argon2')
  })
})

describe('the costs table plans across runtimes and attackers', () => {
  const lines = costLines([...nodeRuns, fixture], claims)
  const cells = (candidate: string, params: string) =>
    costCells(lines.find((l) => l.candidate === candidate && l.params === params) as (typeof lines)[number])

  test('Bun and workerd columns: a figure, a dash whose reason is the manifest, or not measured', () => {
    const wasm = lines.find(
      (l) => l.candidate === '@authlab/hash-wasm' && l.params === 'argon2id m=19456 t=2 p=1',
    )
    expect(wasm?.runtimes.workerd).toEqual({ kind: 'ms', ms: 35 })
    const bcrypt = lines.find((l) => l.candidate === '@authlab/hash-bcrypt')
    expect(bcrypt?.runtimes.workerd).toEqual({
      kind: 'absent',
      reason: claims.get('@authlab/hash-bcrypt')?.notInWorkerd,
    })
    expect(bcrypt?.runtimes.bun).toEqual({ kind: 'not-measured' })
    // A setting only the cross-runtime run measured gets its own line.
    expect(lines.some((l) => l.params === 'scrypt ln=14 r=8 p=5' && l.meetsFloor)).toBe(true)
  })

  test('an RTX 5090 column where a figure is published, and dollars at the cheaper card', () => {
    const bcrypt = cells('@authlab/hash-bcrypt', 'bcrypt cost=10')
    expect(bcrypt).toContain('9.53 kH/s')
    expect(bcrypt.at(-1)).toMatch(/^\$\d+ \(RTX 4090\)$/)
    const argon2 = cells('@authlab/hash-argon2', 'argon2id m=19456 t=2 p=1')
    expect(argon2).toContain('no published figure')
  })
})
