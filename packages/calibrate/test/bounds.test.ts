import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { defineKdfHasher, type PasswordHasher, PBKDF2_SHA256 } from '@authlab/core'
import { afterAll, describe, expect, test } from 'vitest'
import { calibrate, LIMITS } from '../src/index.js'

type Params = Readonly<Record<string, number>>

/** A virtual clock that modelled hashes advance, so nothing here depends on this machine's speed. */
function virtualClock() {
  const clock = { now: 0 }
  return { clock, read: () => clock.now }
}

/**
 * PBKDF2 through core's real definer with a bounded KDF (`maxConcurrent`, as the pure-JS scrypt
 * packages declare), whose derivation takes a turn of the event loop and `msPer600k` virtual ms per
 * 600,000 iterations.
 */
function boundedPbkdf2(clock: { now: number }, maxConcurrent: number, msPer600k = 100) {
  return (params: Params): PasswordHasher =>
    defineKdfHasher({
      algorithm: PBKDF2_SHA256,
      describe: { name: 'bounded-model', displayName: 'model', wraps: 'model', runsOn: 'main-thread' },
      kdf: async (_password, _salt, kdfParams, length) => {
        await nextTurn()
        clock.now += ((kdfParams.iterations as number) / 600_000) * msPer600k
        return new Uint8Array(length)
      },
      options: params,
      maxConcurrent,
    })
}

describe('a hasher that refuses hashes past its maxConcurrent', () => {
  test('is measured at its bound, and the result says so, instead of failing on an OverloadError', async () => {
    const { clock, read } = virtualClock()
    const result = await calibrate({
      algorithm: 'pbkdf2-sha256',
      factory: boundedPbkdf2(clock, 4),
      targetMs: 400,
      concurrency: 8,
      clock: read,
    })
    expect(result).toMatchObject({ concurrency: 4, requestedConcurrency: 8, met: true })
    expect(result.concurrencyNote).toMatch(/refuses more than 4 hashes in flight \(maxConcurrent/)
    for (const m of result.tried) expect(m.concurrency).toBe(4)
  })

  test('a candidate that fails ends the search with what was measured, not an exception', async () => {
    const { clock, read } = virtualClock()
    const working = boundedPbkdf2(clock, 4)
    const result = await calibrate({
      algorithm: 'pbkdf2-sha256',
      factory: (params) => {
        if ((params.iterations as number) > 600_000) throw new Error('this build refuses more iterations')
        return working(params)
      },
      targetMs: 250,
      concurrency: 1,
      clock: read,
    })
    expect(result.tried.map((m) => m.params.iterations)).toEqual([600_000])
    expect(result.stopped).toMatchObject({ kind: 'error', params: { iterations: 1_500_000 } })
    expect(result.reason).toMatch(
      /the search stopped: measuring iterations=1500000 failed: this build refuses/,
    )
  })
})

describe('the whole run is bounded in time', () => {
  test('--target 10s with 1000 samples stops at the time limit, predicted from what was measured', async () => {
    const { clock, read } = virtualClock()
    // 700 ms per hash at OWASP's 600,000 iterations: unbounded, the search measured for hours.
    const result = await calibrate({
      algorithm: 'pbkdf2-sha256',
      factory: boundedPbkdf2(clock, 1024, 700),
      targetMs: LIMITS.maxTargetMs,
      samples: LIMITS.maxSamples,
      concurrency: 1,
      maxTimeMs: LIMITS.maxTimeMs,
      clock: read,
    })
    expect(read()).toBeLessThanOrEqual(LIMITS.maxTimeMs)
    expect(result.stopped).toMatchObject({ kind: 'time' })
    expect(result.reason).toMatch(/would end past the run's time limit \(60 min; predicted \d+ min/)
    expect(result.tried.length).toBeGreaterThan(0)
  })

  test('a first candidate whose warm-up predicts the limit is passed is not timed: OutOfTimeError', async () => {
    const { clock, read } = virtualClock()
    await expect(
      calibrate({
        algorithm: 'pbkdf2-sha256',
        factory: boundedPbkdf2(clock, 1024, 700),
        targetMs: 1000,
        samples: 1000,
        concurrency: 1,
        maxTimeMs: 60_000,
        clock: read,
      }),
    ).rejects.toMatchObject({ name: 'OutOfTimeError', code: 'ERR_AUTHLAB_TIMEOUT' })
    // The warm-up round (one hash) ran; the 1000 timed hashes did not.
    expect(read()).toBe(700)
  })
})

test('the default concurrency is the core count, as the command uses', async () => {
  const { clock, read } = virtualClock()
  const result = await calibrate({
    algorithm: 'pbkdf2-sha256',
    factory: boundedPbkdf2(clock, 1024),
    targetMs: 250,
    clock: read,
  })
  expect(result.requestedConcurrency).toBe(availableParallelism())
  expect(result.tried[0]?.concurrency).toBe(availableParallelism())
})

test('maxMemory past core caps (1 GiB) is a typed error, before any hasher is made', async () => {
  let made = 0
  await expect(
    calibrate({
      algorithm: 'argon2id',
      factory: () => {
        made++
        throw new Error('not reached')
      },
      targetMs: 250,
      maxMemory: 2 ** 30 + 1,
    }),
  ).rejects.toMatchObject({
    code: 'ERR_AUTHLAB_INVALID_OPTION',
    message: /maxMemory must be .* up to 1073741824/,
  })
  expect(made).toBe(0)
})

describe('the command', () => {
  const dir = mkdtempSync(join(tmpdir(), 'calibrate-bounds-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const clock = { now: 0 }
  ;(globalThis as { calibrateTestClock?: typeof clock }).calibrateTestClock = clock
  // Package files without imports, so they load from a temporary directory: a bounded modelled hasher
  // (an OverloadError past 4 in flight, as the pure-JS scrypt packages) and one whose every hash fails.
  writeFileSync(
    join(dir, 'bounded.mjs'),
    `const clock = globalThis.calibrateTestClock
let inFlight = 0
export const createHasher = (params = {}) => ({
  info: { name: 'bounded-model', displayName: 'm', wraps: 'm', algorithm: 'pbkdf2-sha256', runsOn: 'main-thread', params, maxConcurrent: 4 },
  async hash() {
    if (inFlight >= 4) throw Object.assign(new Error('4 derivations are in flight'), { code: 'ERR_AUTHLAB_OVERLOAD' })
    inFlight++
    await new Promise((resolve) => setImmediate(resolve))
    clock.now += ((params.iterations ?? 600000) / 600000) * 100
    inFlight--
    return 'modelled'
  },
  verify: async () => true,
  needsRehash: () => false,
})
`,
  )
  writeFileSync(
    join(dir, 'broken.mjs'),
    `export const createHasher = (params = {}) => ({
  info: { name: 'broken', displayName: 'b', wraps: 'b', algorithm: 'bcrypt', runsOn: 'main-thread', params },
  hash: async () => { throw Object.assign(new Error('the native binding crashed'), { code: 'ERR_DLOPEN_FAILED' }) },
  verify: async () => true,
  needsRehash: () => false,
})
`,
  )
  const run = async (argv: string[]) => {
    const { main } = await import('../src/cli.js')
    let stdout = ''
    let stderr = ''
    const code = await main(argv, {
      stdout: (text) => {
        stdout += text
      },
      stderr: (text) => {
        stderr += text
      },
      machine: { cores: 8, load1: () => 0, clock: () => clock.now },
    })
    return { code, stdout, stderr }
  }

  test('--concurrency 8 measures a bounded hasher at its bound; a failing one is listed, the rest kept', async () => {
    const result = await run([
      '--target',
      '400ms',
      '--concurrency',
      '8',
      '--package',
      join(dir, 'bounded.mjs'),
      '--package',
      join(dir, 'broken.mjs'),
    ])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/^met {4}.*bounded\.mjs: createHasher\(\{ iterations: \d+ \}\)/m)
    expect(result.stdout).toMatch(/note: bounded-model refuses more than 4 hashes in flight/)
    expect(result.stdout).toMatch(/^failed .*broken\.mjs: ERR_DLOPEN_FAILED the native binding crashed$/m)
  })

  test('--max-memory past 1 GiB, --max-time past an hour: usage errors (exit 2) before anything runs', async () => {
    for (const [flag, value, message] of [
      ['--max-memory', '100GiB', /--max-memory must be at most 1GiB \(core's caps\), got 100GiB/],
      ['--max-time', '2h', /--max-time must be at most 60min, got 2h/],
      ['--max-time', 'soon', /--max-time must look like/],
    ] as const) {
      const result = await run(['--target', '250ms', flag, value, '--filter', 'nothing-matches'])
      expect(result.code).toBe(2)
      expect(result.stderr).toMatch(message)
      expect(result.stdout).toBe('')
    }
  })

  test('--help states every limit, the run time bound included', async () => {
    const { stdout } = await run(['--help'])
    expect(stdout).toMatch(/--max-time bounds the whole run \(default 10min, at most 60min\)/)
    expect(stdout).toMatch(/--max-memory 1GiB/)
  })
})
