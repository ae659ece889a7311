import { describe, expect, test } from 'vitest'
import {
  type Check,
  type IdCheckOptions,
  idChecks,
  type ResolvedIdCheckOptions,
  resolveOptions,
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

describe('the checks isolate their bug classes', () => {
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
