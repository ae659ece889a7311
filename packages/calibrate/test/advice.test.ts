import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { PasswordHasher } from '@authlab/core'
import { describe, expect, test } from 'vitest'
import {
  type CalibratedAlgorithm,
  type CalibrationResult,
  calibrate,
  checkLoad,
  inconsistencies,
  loginsPerSecondPerCore,
  recommend,
} from '../src/index.js'

type Params = Readonly<Record<string, number>>

/** A hasher whose hashes advance a virtual clock by a modelled cost: times are exact, not this machine's. */
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
  return { algorithm, factory, clock: () => now }
}

const result = (algorithm: CalibratedAlgorithm, params: Params, medianMs: number): CalibrationResult => ({
  algorithm,
  targetMs: 250,
  concurrency: 1,
  requestedConcurrency: 1,
  params,
  medianMs,
  p99Ms: medianMs,
  met: true,
  tried: [],
  snippet: 'createHasher({})',
})

describe('what the calibrator advises', () => {
  test('a busy machine: refused at a load of the core count, warned above half', () => {
    expect(checkLoad(4.64, 2).kind).toBe('refuse')
    expect(checkLoad(2, 2).kind).toBe('refuse')
    expect(checkLoad(1.2, 2).kind).toBe('warn')
    expect(checkLoad(0.4, 2).kind).toBe('ok')
  })

  test('more work measured faster is flagged (PBKDF2 809,000 iterations faster than 600,000)', () => {
    const m = (iterations: number, medianMs: number) => ({
      params: { iterations },
      medianMs,
      p99Ms: medianMs,
      samples: 12,
      concurrency: 1,
      durationMs: 12 * medianMs,
    })
    expect(inconsistencies('pbkdf2-sha256', [m(600_000, 300), m(809_000, 250)])).toEqual([
      'more work measured faster: iterations=809000 250 ms against iterations=600000 300 ms',
    ])
    expect(inconsistencies('pbkdf2-sha256', [m(600_000, 185), m(809_000, 250)])).toEqual([])
  })

  test('logins/s per core from the latency at the planned concurrency', () => {
    expect(loginsPerSecondPerCore(250, 1, 2)).toBe(4)
    // 8 at once on 2 cores: each takes 4× as long, the cores still serve 4 a second each.
    expect(loginsPerSecondPerCore(1000, 8, 2)).toBe(4)
  })

  test('recommends the algorithm against which a GPU makes the fewest guesses at the same server time', () => {
    const pick = recommend([
      result('bcrypt', { cost: 12 }, 250),
      result('argon2id', { m: 65536, t: 9, p: 1 }, 250),
      result('pbkdf2-sha256', { iterations: 1_500_000 }, 250),
    ])
    expect(pick?.best.algorithm).toBe('argon2id')
    expect(pick?.why).toMatch(
      /RTX 4090 makes 568 H\/s against it, against 1\.44 kH\/s against bcrypt \(250 ms\)/,
    )
  })

  test('too slow at the minimum: bcrypt and PBKDF2 are never told to raise the memory', async () => {
    for (const [algorithm, cost] of [
      ['bcrypt', () => 1000],
      ['pbkdf2-sha256', () => 1000],
    ] as const) {
      const r = await calibrate({ ...modelled(algorithm, cost), targetMs: 100 })
      expect(r.reason).toMatch(/raise the target or add cores/)
      expect(r.reason).toMatch(/no memory to lower/)
    }
  })
})

describe('the CLI states its concurrency, both sides and a recommendation', () => {
  const dir = mkdtempSync(join(tmpdir(), 'calibrate-advice-'))
  // A PBKDF2 hasher whose hash advances a shared virtual clock by 100 ms per 600,000 iterations.
  writeFileSync(
    join(dir, 'model.mjs'),
    `globalThis.__calibrateNow = 0
export const createHasher = (params = {}) => ({
  info: { algorithm: 'pbkdf2-sha256' },
  async hash() { globalThis.__calibrateNow += ((params.iterations ?? 600000) / 600000) * 100; return 'x' },
})
`,
  )
  const run = async (argv: string[], load1: number) => {
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
      machine: {
        cores: 2,
        load1: () => load1,
        clock: () => (globalThis as { __calibrateNow?: number }).__calibrateNow ?? 0,
      },
    })
    return { code, stdout, stderr }
  }

  test('default concurrency is the cores, said so; logins/s per core; attacker with source; recommended', async () => {
    const { code, stdout } = await run(['--target', '250ms', '--package', join(dir, 'model.mjs')], 0.3)
    expect(code).toBe(0)
    expect(stdout).toMatch(/with 2 logins at once \(this machine's 2 cores, the default; --concurrency/)
    expect(stdout).toMatch(/server: \d+ ms per login with 2 at once = [\d.]+ logins\/s per core/)
    expect(stdout).toMatch(/attacker: ≈ [\d.]+ kH\/s per GPU, [\d.,]+ GPU-days per 10\^10 guesses/)
    expect(stdout).toMatch(/source: hashcat v6\.2\.6 mode 10900 on one NVIDIA GeForce RTX 4090: .*https:\/\//)
    expect(stdout).toMatch(
      /recommended: pbkdf2-sha256 with .*model\.mjs, createHasher\(\{ iterations: \d+ \}\)/,
    )
  })

  test('refuses to measure on a machine loaded to its core count (exit 3), unless --allow-load', async () => {
    const refused = await run(['--target', '250ms', '--package', join(dir, 'model.mjs')], 4.64)
    expect(refused.code).toBe(3)
    expect(refused.stderr).toMatch(/too loaded to measure \(load average 4\.64 on 2 cores\)/)
    expect(refused.stdout).not.toMatch(/met|missed/)
    const allowed = await run(
      ['--target', '250ms', '--allow-load', '--package', join(dir, 'model.mjs')],
      4.64,
    )
    expect(allowed.code).toBe(0)
    expect(allowed.stdout).toMatch(/warning: too loaded to measure/)
    rmSync(dir, { recursive: true, force: true })
  })
})
