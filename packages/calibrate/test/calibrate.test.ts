import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { owaspFloor, type PasswordHasher } from '@authlab/core'
import { createHasher as pbkdf2 } from '@authlab/hash-pbkdf2'
import { describe, expect, test } from 'vitest'
import { type CalibratedAlgorithm, calibrate } from '../src/index.js'
import { SEARCHES } from '../src/search.js'

type Params = Readonly<Record<string, number>>

/**
 * A hasher whose every hash advances a virtual clock by a modelled cost, so the search is tested on
 * exact, load-independent times. Concurrent lanes queue on it as on one core; one login at a time
 * unless a test says otherwise (the default is the machine's core count).
 */
function modelled(algorithm: CalibratedAlgorithm, costMs: (params: Params) => number) {
  let now = 0
  const factory = (params: Params): PasswordHasher => ({
    info: { name: 'model', displayName: 'model', wraps: 'model', algorithm, runsOn: 'threadpool', params },
    async hash() {
      now += costMs(params)
      return 'modelled'
    },
    verify: async () => true,
    needsRehash: () => false,
  })
  return { algorithm, factory, clock: () => now, concurrency: 1 }
}

test('PBKDF2: iterations scale linearly from OWASP 600,000 to the target', async () => {
  const result = await calibrate({
    ...modelled('pbkdf2-sha256', ({ iterations }) => ((iterations as number) / 600_000) * 100),
    targetMs: 250,
  })
  expect(result.met).toBe(true)
  expect(result.params.iterations).toBe(1_500_000)
  expect(result.snippet).toBe('createHasher({ iterations: 1500000 })')
})

test('argon2id (RFC 9106 §4): memory from the limit, lanes 1, passes raised to the target', async () => {
  const result = await calibrate({
    ...modelled('argon2id', ({ m, t }) => ((m as number) / 1024) * (t as number)),
    targetMs: 250,
    maxMemory: 64 * 1024 * 1024,
  })
  expect(result).toMatchObject({ met: true, params: { m: 65536, t: 4, p: 1 }, medianMs: 256 })
})

test('argon2id: when one pass is too slow, less memory per OWASP equal-defence table, never below it', async () => {
  const result = await calibrate({
    ...modelled('argon2id', ({ m, t }) => ((m as number) / 1024) * (t as number) * 50),
    targetMs: 250,
  })
  expect(result.met).toBe(false)
  expect(result.reason).toMatch(/OWASP's minimum/)
  for (const m of result.tried)
    expect((m.params.m as number) * (m.params.t as number)).toBeGreaterThanOrEqual(35840)
})

test('bcrypt: the doubling cost may miss ±15 %, and the result says so with every step measured', async () => {
  const model = modelled('bcrypt', ({ cost }) => 2 ** (cost as number) * 0.05)
  const missed = await calibrate({ ...model, targetMs: 250 })
  expect(missed).toMatchObject({ met: false, params: { cost: 12 } })
  expect(missed.reason).toMatch(/doubles the work per step.*cost 12 205 ms, cost 13 410 ms/)
  const hit = await calibrate({ ...model, targetMs: 200 })
  expect(hit).toMatchObject({ met: true, params: { cost: 12 } })
})

test('scrypt (RFC 7914): N as large as memory allows, OWASP lanes floor for that N, lanes tune the time', async () => {
  const result = await calibrate({
    ...modelled('scrypt', ({ ln, p }) => 2 ** ((ln as number) - 16) * 50 * (p as number)),
    targetMs: 250,
    maxMemory: 64 * 1024 * 1024,
  })
  expect(result).toMatchObject({ met: true, params: { ln: 16, r: 8, p: 5 } })
})

test('scrypt: when the largest N is too slow at its floor, the next OWASP row of equal defence', async () => {
  // N=2^16 p=2 takes 340 ms here; N=2^15 p=3, OWASP's next row, takes 255 ms.
  const model = modelled('scrypt', ({ ln, p }) => 2 ** ((ln as number) - 16) * 170 * (p as number))
  const result = await calibrate({ ...model, targetMs: 250, maxMemory: 64 * 1024 * 1024 })
  expect(result).toMatchObject({ met: true, params: { ln: 15, r: 8, p: 3 } })
  const tight = await calibrate({ ...model, targetMs: 10, maxMemory: 64 * 1024 * 1024 })
  expect(tight.met).toBe(false)
  expect(tight.reason).toMatch(/OWASP's minimum/)
  // Every configuration tried is one of OWASP's rows or above it: N·p never below 2^13·10.
  for (const m of tight.tried) {
    const { ln, p } = m.params as { ln: number; p: number }
    expect(2 ** ln * p).toBeGreaterThanOrEqual(2 ** 13 * 10)
    expect(p).toBeGreaterThanOrEqual(({ 16: 2, 15: 3, 14: 5, 13: 10 } as Record<number, number>)[ln] ?? 1)
  }
})

test('concurrency counts queueing: 4 logins at once on one modelled core take 4× as long each', async () => {
  const result = await calibrate({
    ...modelled('pbkdf2-sha256', ({ iterations }) => ((iterations as number) / 600_000) * 25),
    targetMs: 100,
    concurrency: 4,
  })
  expect(result.tried[0]?.medianMs).toBe(100)
  expect(result.params.iterations).toBe(600_000)
})

test('bad options are typed errors', async () => {
  const model = modelled('pbkdf2-sha256', () => 1)
  for (const bad of [
    { targetMs: 0 },
    { targetMs: Number.NaN },
    { targetMs: 100, concurrency: 0 },
    { targetMs: 100, maxMemory: -1 },
    { targetMs: 100, algorithm: 'md5' },
    { targetMs: 100, factory: 'x' },
  ]) {
    await expect(calibrate({ ...model, ...bad } as never)).rejects.toMatchObject({
      code: 'ERR_AUTHLAB_INVALID_OPTION',
    })
  }
})

test('a real hasher: parameters never below OWASP and every candidate measured', async () => {
  const result = await calibrate({
    algorithm: 'pbkdf2-sha256',
    factory: (params) => pbkdf2(params),
    targetMs: 50,
    samples: 4,
  })
  expect(result.params.iterations).toBeGreaterThanOrEqual(600_000)
  expect(result.tried.length).toBeGreaterThan(0)
  for (const m of result.tried) expect(m.samples).toBe(4)
})

test('the CLI reads durations and sizes as people write them, and refuses the rest', async () => {
  const { parseBytes, parseDuration } = await import('../src/cli.js')
  expect([parseDuration('250ms'), parseDuration('0.25s'), parseDuration('250')]).toEqual([250, 250, 250])
  expect([parseBytes('64MiB'), parseBytes('1GiB'), parseBytes('512kib')]).toEqual([2 ** 26, 2 ** 30, 2 ** 19])
  expect(() => parseDuration('fast')).toThrow(/--target/)
  expect(() => parseBytes('64MB')).toThrow(/--max-memory/)
})

test('argon2id with a large --max-memory: one pass too slow over all of it, less memory meets the target', async () => {
  // 164 ms at 512 MiB, 15 ms at OWASP's 46 MiB row, linear in memory: as measured on a 2-core box.
  const result = await calibrate({
    ...modelled('argon2id', ({ m, t }) => (m as number) * (t as number) * (164 / 524288)),
    targetMs: 100,
    maxMemory: 512 * 1024 * 1024,
  })
  expect(result.met).toBe(true)
  expect(result.params.t).toBe(1)
  expect(result.params.m).toBeGreaterThan(47104)
  expect(result.params.m).toBeLessThan(524288)
  expect(Math.abs(result.medianMs / 100 - 1)).toBeLessThanOrEqual(0.15)
})

test('a missed target quotes the fastest setting measured, with its own time', async () => {
  const result = await calibrate({
    ...modelled('argon2id', ({ m, t }) => ((m as number) / 1024) * (t as number) * 50),
    targetMs: 250,
  })
  const fastest = result.tried.reduce((a, m) => (m.medianMs < a.medianMs ? m : a))
  expect(result.reason).toContain(`takes ${fastest.medianMs.toFixed(0)} ms`)
})

test('a target, concurrency or sample count past its bound is a typed error, before any hash', async () => {
  let hashes = 0
  const model = modelled('pbkdf2-sha256', () => {
    hashes++
    return 1
  })
  for (const bad of [
    { targetMs: 250_000 },
    { targetMs: 100, concurrency: 100_000 },
    { targetMs: 100, samples: 10 ** 6 },
  ])
    await expect(calibrate({ ...model, ...bad })).rejects.toMatchObject({
      code: 'ERR_AUTHLAB_INVALID_OPTION',
    })
  expect(hashes).toBe(0)
})

describe('the CLI', () => {
  const run = async (argv: string[]) => {
    const { main } = await import('../src/cli.js')
    let stdout = ''
    let stderr = ''
    const code = await main(argv, {
      stdout: (t) => {
        stdout += t
      },
      stderr: (t) => {
        stderr += t
      },
    })
    return { code, stdout, stderr }
  }

  test('refuses --target 250s and --concurrency 100000 at once (exit 2), measuring nothing', async () => {
    for (const argv of [
      ['--target', '250s'],
      ['--target', '100ms', '--concurrency', '100000'],
    ]) {
      const result = await run(argv)
      expect(result.code).toBe(2)
      expect(result.stderr).toMatch(/--target must be at most 10s|--concurrency must be at most 1024/)
      expect(result.stdout).toBe('')
    }
  })

  test('refuses an unwritable --json before the run', async () => {
    const result = await run(['--target', '100ms', '--json', '/nonexistent-directory/calibration.json'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/--json .* cannot be written \(ENOENT\)/)
    expect(result.stdout).toBe('')
  })

  test('--package by relative path loads it from where the command runs; one that throws says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'calibrate-'))
    try {
      writeFileSync(join(dir, 'throws.mjs'), "throw new Error('broken at import')\n")
      writeFileSync(
        join(dir, 'fine.mjs'),
        "export const createHasher = () => ({ info: { algorithm: 'pbkdf2-sha256' } })\n",
      )
      const cwd = process.cwd()
      process.chdir(dir)
      try {
        const result = await run([
          '--target',
          '100ms',
          '--filter',
          'nothing-matches',
          '--package',
          './fine.mjs',
          '--package',
          './throws.mjs',
          '--package',
          './missing.mjs',
        ])
        expect(result.code).toBe(0)
        expect(result.stdout).not.toMatch(/fine\.mjs/)
        expect(result.stdout).toMatch(
          /skipped \.\/throws\.mjs: \.\/throws\.mjs failed to import: broken at import/,
        )
        expect(result.stdout).toMatch(/skipped \.\/missing\.mjs: \.\/missing\.mjs: no such file/)
        expect(result.stdout).not.toMatch(/is not installed/)
      } finally {
        process.chdir(cwd)
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe("nothing calibrate measures or names is below OWASP's floor", () => {
  // Time per hash proportional to each algorithm's work, from fast to slow machines, with every memory limit.
  const work: Record<CalibratedAlgorithm, (p: Params) => number> = {
    argon2id: ({ m, t }) => ((m as number) * (t as number)) / 38_912,
    bcrypt: ({ cost }) => 2 ** ((cost as number) - 10),
    scrypt: ({ ln, r, p }) => (2 ** (ln as number) * (r as number) * (p as number)) / 655_360,
    'pbkdf2-sha256': ({ iterations }) => (iterations as number) / 600_000,
  }
  const algorithms = Object.keys(work) as CalibratedAlgorithm[]

  test.for(algorithms)('%s: every setting tried and the one chosen meet the floor', async (algorithm) => {
    for (const msPerFloorHash of [1, 40, 400])
      for (const maxMemory of [4, 16, 64, 256].map((mib) => mib * 2 ** 20))
        for (const targetMs of [50, 250, 1000]) {
          const model = modelled(algorithm, (p) => work[algorithm](p) * msPerFloorHash)
          const result = await calibrate({ ...model, targetMs, maxMemory })
          for (const m of [...result.tried, result])
            expect(owaspFloor(algorithm, m.params), JSON.stringify(m.params)).toMatchObject({ meets: true })
        }
    // The same check on a setting below the floor fails: it is not vacuous.
    expect(owaspFloor('argon2id', { m: 7168, t: 4, p: 1 }).meets).toBe(false)
  })

  test('a search that asks for a setting below the floor is refused before anything is measured', async () => {
    let hashed = 0
    const factory = () => {
      hashed++
      return modelled('argon2id', () => 1).factory({})
    }
    const saved = SEARCHES.argon2id
    SEARCHES.argon2id = async (ctx) => void (await ctx.measure({ m: 8192, t: 1, p: 1 }))
    try {
      await expect(calibrate({ algorithm: 'argon2id', factory, targetMs: 100 })).rejects.toMatchObject({
        code: 'ERR_AUTHLAB_PARAMETER_LIMIT',
      })
    } finally {
      SEARCHES.argon2id = saved
    }
    expect(hashed).toBe(0)
  })
})
