import { describe, expect, test } from 'vitest'
import {
  type Check,
  DEFAULT_SIZES,
  DEFAULT_UNIQUE,
  type IdCheckOptions,
  idChecks,
  type ResolvedIdCheckOptions,
  resolveOptions,
  SIGNIFICANCE,
  uniqueSize,
} from '../src/index.js'
import * as broken from './fixtures/broken-generators.js'

const constantSeedModule = new URL('./fixtures/constant-seed.mjs', import.meta.url)

function run(check: Check<ResolvedIdCheckOptions>, options: IdCheckOptions) {
  return Promise.resolve().then(() => check.run(resolveOptions(options)))
}

// Each check must reject the bug class it exists for, and pass a correct generator: otherwise it
// could be a check that cannot fail.
const cases: [keyof typeof idChecks, string, IdCheckOptions][] = [
  ['format', 'variable length', { factory: broken.variableLength }],
  ['format', 'characters outside base64url', { factory: broken.standardBase64 }],
  ['format', 'over-claimed entropy', { factory: broken.overclaimedEntropy }],
  ['format', 'under 128 bits', { factory: broken.tooShort }],
  ['uniqueness', 'a 16-bit PRNG period', { factory: broken.shortPeriod }],
  ['uniqueness', 'only 2^32 possible IDs (a 32-bit seed per ID)', { factory: broken.seed32 }],
  ['noByteReuse', 'a pool offset that overlaps 8 bytes', { factory: broken.overlappingPool }],
  ['uniformity', 'a fixed prefix', { factory: broken.fixedPrefix }],
  ['uniformity', 'modulo bias', { factory: broken.biased }],
  ['independence', 'a random walk between consecutive IDs', { factory: broken.randomWalk }],
  ['retainedMemory', 'substrings of a pooled string', { factory: broken.slicedPool }],
  ['asyncInterleaving', 'an async refill that serves a stale pool', { factory: broken.asyncRefill }],
]

describe('each ID check fails on the broken generator it exists for', () => {
  test.each(cases)('%s rejects %s', async (check, _bug, options) => {
    await expect(run(idChecks[check], options)).rejects.toThrow()
  })

  test('worksInWorker rejects a constant-seed PRNG that repeats the main thread in a worker', async () => {
    const { createIdGenerator } = (await import(constantSeedModule.href)) as {
      createIdGenerator: IdCheckOptions['factory']
    }
    // Within one thread the fixture is fine: only the worker check sees the repetition.
    await expect(
      run(idChecks.uniqueness, { factory: createIdGenerator, sizes: { unique: 100_000 } }),
    ).resolves.toBeUndefined()
    await expect(
      run(idChecks.worksInWorker, { factory: createIdGenerator, workerModule: constantSeedModule }),
    ).rejects.toThrow(/collide/)
  })

  test('worksInWorker requires a declared worker module', async () => {
    await expect(run(idChecks.worksInWorker, { factory: broken.correctGenerator })).rejects.toThrow(
      /workerModule/,
    )
  })
})

describe('the duplicate check is sized by the birthday bound', () => {
  test('its default catches 2^32 possible IDs at the rejection level; more IDs are not needed', () => {
    // P(no duplicate among n from 2^32) ≤ exp(−n(n−1)/2^33) must be ≤ SIGNIFICANCE.
    expect(Math.exp((-DEFAULT_UNIQUE * (DEFAULT_UNIQUE - 1)) / 2 ** 33)).toBeLessThanOrEqual(SIGNIFICANCE)
    expect(Math.exp((-(DEFAULT_UNIQUE - 1000) * (DEFAULT_UNIQUE - 1001)) / 2 ** 33)).toBeGreaterThan(
      SIGNIFICANCE,
    )
    expect(DEFAULT_SIZES.unique).toBe(DEFAULT_UNIQUE)
  })

  test('a correct generator with fewer declared bits draws fewer, so it cannot false-alarm', () => {
    expect(uniqueSize({ entropyBits: 192, poolBytes: 0 })).toBe(DEFAULT_UNIQUE)
    const n = uniqueSize({ entropyBits: 48, poolBytes: 0 })
    expect(n).toBeLessThan(DEFAULT_UNIQUE)
    expect((n * n) / 2 ** 49).toBeLessThanOrEqual(SIGNIFICANCE)
    // A declared pool is always crossed ten times: 10 × 24 MiB / 24 bytes per ID.
    expect(uniqueSize({ entropyBits: 192, poolBytes: 24 * 1024 * 1024 })).toBe(10 * 1024 * 1024)
  })
})

describe('the checks isolate their bug classes', () => {
  test('the 2^32-valued generator is uniform and independent: only the duplicate check can see it', async () => {
    await expect(run(idChecks.uniformity, { factory: broken.seed32 })).resolves.toBeUndefined()
    await expect(run(idChecks.independence, { factory: broken.seed32 })).resolves.toBeUndefined()
  })

  test('the overlapping pool has no duplicate IDs: only the reuse check can see it', async () => {
    await expect(run(idChecks.uniqueness, { factory: broken.overlappingPool })).resolves.toBeUndefined()
  })

  test('the random walk is uniform per position: only the independence check can see it', async () => {
    await expect(run(idChecks.uniformity, { factory: broken.randomWalk })).resolves.toBeUndefined()
  })

  test.each(Object.keys(idChecks).filter((k) => k !== 'worksInWorker') as (keyof typeof idChecks)[])(
    '%s passes a correct generator',
    async (check) => {
      await expect(run(idChecks[check], { factory: broken.correctGenerator })).resolves.toBeUndefined()
    },
  )
})
