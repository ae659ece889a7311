import type { PasswordHasher, RunsOn } from '@authlab/core'
import { describe, expect, test } from 'vitest'
import { nativeHashers } from '../src/discover/baselines.js'
import type { Candidates, HashCandidate } from '../src/model/candidates.js'
import { hasFlag } from '../src/model/types.js'
import { concurrencyLevels, projectedRoundMs } from '../src/suites/concurrency/burst.js'
import { suite as concurrencySuite } from '../src/suites/concurrency/index.js'
import { suite as hashSuite } from '../src/suites/hash/index.js'
import { suite as lagSuite } from '../src/suites/lag/index.js'
import { suite as stretchSuite } from '../src/suites/stretch/index.js'
import { capped, context, silentProgress, TINY } from './fixtures.js'

/**
 * Synthetic hashers: instant, self-describing, honouring their cost options the way core's builders
 * do (option keys = info.params keys). They exercise every code path of the hashing suites; the
 * figures they produce are not checked (no timing assertions).
 */
function syntheticHasher(
  id: string,
  algorithm: string,
  runsOn: RunsOn,
  defaults: Record<string, number>,
): HashCandidate {
  const create = (options: Record<string, unknown> = {}): PasswordHasher => {
    if ('algorithm' in options && options.algorithm !== algorithm) throw new Error('other algorithm')
    const params = Object.fromEntries(
      Object.keys(defaults).map((k) => [k, (options[k] as number) ?? defaults[k]]),
    )
    const encoded = `$${algorithm}$${Object.values(params).join(',')}$x`
    return {
      info: { name: id, displayName: `${id} (synthetic)`, wraps: 'nothing', algorithm, runsOn, params },
      hash: async () => encoded,
      verify: async (stored) => stored === encoded,
      needsRehash: () => false,
      ...({ derive: async () => new Uint8Array(32) } as object),
    }
  }
  const optionsFor = (family: string, params: Readonly<Record<string, number>>) =>
    family === algorithm ? { ...params } : undefined
  return { id, label: `${id} (synthetic)`, create, optionsFor, source: { kind: 'reference' } }
}

const native = syntheticHasher(nativeHashers().bcrypt ?? '', 'bcrypt', 'threadpool', { cost: 10 })
const pureJs = syntheticHasher('syn-bcrypt-js', 'bcrypt', 'main-thread', { cost: 10 })
const scrypt = syntheticHasher(nativeHashers().scrypt ?? '', 'scrypt', 'threadpool', { ln: 17, r: 8, p: 1 })
const pbkdf2 = syntheticHasher(nativeHashers()['pbkdf2-sha256'] ?? '', 'pbkdf2-sha256', 'threadpool', {
  iterations: 600_000,
})
const candidates: Candidates = {
  ids: [],
  hashers: [native, pureJs, scrypt, pbkdf2],
  stretch: [
    {
      id: 'syn-stretch',
      label: 'syn-stretch',
      create: () => ({
        info: { ...native.create().info, name: 'syn-stretch', displayName: 'chain' },
        stretch: async () => new Uint8Array(64),
      }),
    },
  ],
}
/** Each suite's context at its tiny budget (or the tight caps'). */
const ctx = {
  hash: context(TINY.hash),
  lag: context(TINY.lag),
  concurrency: context(TINY.concurrency),
  stretch: context(TINY.stretch),
}
const TIGHT = capped(10, 10)
const tightCaps = { hash: context(TIGHT.hash), concurrency: context(TIGHT.concurrency) }

/** `candidate` with every call 20 ms late (a timer, not CPU): slower than the caps of `tightCaps`. */
function slowed(candidate: HashCandidate): HashCandidate {
  const late = () => new Promise((resolve) => setTimeout(resolve, 20))
  return {
    ...candidate,
    id: `${candidate.id}-slow`,
    create(options) {
      const hasher = candidate.create(options)
      return {
        ...hasher,
        async hash(password) {
          await late()
          return hasher.hash(password)
        },
        async verify(stored, password) {
          await late()
          return hasher.verify(stored, password)
        },
      }
    },
  }
}

describe('pure helpers', () => {
  test('concurrency levels are 1, cores, 4×cores and 32 without repeats', () => {
    expect(concurrencyLevels(2)).toEqual([1, 2, 8, 32])
    expect(concurrencyLevels(8)).toEqual([1, 8, 32])
  })
  test('a main-thread strategy is projected to run a round serially, the others over the cores', () => {
    expect(projectedRoundMs(100, 32, 'main-thread', 2)).toBe(3200)
    expect(projectedRoundMs(100, 32, 'threadpool', 2)).toBe(1600)
  })
})

describe('hashing suites on synthetic hashers', () => {
  test('hash: defaults and cost-equalised groups, ratios to the native implementation, shared measurements', async () => {
    const { rows } = await hashSuite.run(candidates, ctx.hash)
    const groups = [...new Set(rows.map((r) => r.group))]
    expect(groups).toEqual([
      'defaults · hash',
      'bcrypt cost 10 · hash',
      'scrypt better-auth N=2^14 r=16 p=1 · hash',
      'PBKDF2-SHA256 600k · hash',
      'defaults · verify',
      'bcrypt cost 10 · verify',
      'scrypt better-auth N=2^14 r=16 p=1 · verify',
      'PBKDF2-SHA256 600k · verify',
    ])
    const jsAtTen = rows.find((r) => r.group === 'bcrypt cost 10 · hash' && r.candidate === 'syn-bcrypt-js')
    expect(jsAtTen?.ratios[0]?.baseline).toBe(`${nativeHashers().bcrypt} (synthetic)`)
    expect(jsAtTen && hasFlag(jsAtTen, 'same-as-defaults')).toBe(true)
    expect(rows.find((r) => r.group === 'scrypt better-auth N=2^14 r=16 p=1 · hash')?.details.params).toBe(
      'scrypt ln=14 r=16 p=1',
    )
    // The A/A control: native bcrypt's defaults again, as its own row with its own rounds.
    const control = rows.find((r) => r.group === 'defaults · hash' && hasFlag(r, 'control'))
    expect(control).toMatchObject({ candidate: `${nativeHashers().bcrypt} (A/A)`, unit: 'CPU ms/hash' })
    expect(control?.rounds).toHaveLength(TINY.hash.rounds)
    expect(control?.ratios[0]?.rounds).toHaveLength(TINY.hash.rounds)
  })

  test('lag: one row per hasher with delay, ticks and utilization', async () => {
    const { rows } = await lagSuite.run(candidates, ctx.lag)
    expect(rows.map((r) => r.candidate)).toEqual(candidates.hashers.map((h) => h.id))
    expect(Object.keys(rows[0]?.details ?? {})).toEqual([
      'p99 delay ms',
      'ticks/hash',
      'loop free %',
      'ms/hash',
      'ELU %',
      'hashes',
      'params',
      'runs on',
    ])
    // Native bcrypt is the baseline; the main-thread one is divided by it only, there being no bcrypt on workers.
    expect(rows.map((r) => r.ratios.map((q) => q.baseline))).toEqual([[], [native.label], [], []])
  })

  test('lag: a main-thread hasher is also divided by the same algorithm on workers, not by other algorithms', async () => {
    const worker = syntheticHasher('syn-bcrypt-worker', 'bcrypt', 'worker', { cost: 10 })
    const scryptJs = syntheticHasher('syn-scrypt-js', 'scrypt', 'main-thread', { ln: 17, r: 8, p: 1 })
    const { rows } = await lagSuite.run(
      { ...candidates, hashers: [native, pureJs, worker, scrypt, scryptJs] },
      ctx.lag,
    )
    const baselines = Object.fromEntries(rows.map((r) => [r.candidate, r.ratios.map((q) => q.baseline)]))
    expect(baselines).toEqual({
      [native.id]: [],
      'syn-bcrypt-js': [native.label, worker.label],
      'syn-bcrypt-worker': [native.label],
      [scrypt.id]: [],
      'syn-scrypt-js': [scrypt.label],
    })
  })

  test("concurrency: every K per hasher as the speed-up over its round's single hash; one A/A control", async () => {
    const { rows, notes } = await concurrencySuite.run(
      { ...candidates, hashers: [native, pureJs] },
      ctx.concurrency,
    )
    // A finite burst cap is quick mode: K = 1, cores and 4 × cores; the burst of 32 is a full-mode level.
    expect(rows.map((r) => `${r.candidate} ${r.group}`)).toEqual([
      `${native.id} (A/A) K=1 again (A/A control)`,
      `${native.id} K=1`,
      `${native.id} K=2`,
      `${native.id} K=8`,
      'syn-bcrypt-js K=1',
      'syn-bcrypt-js K=2',
      'syn-bcrypt-js K=8',
    ])
    expect(rows[0]?.ratios[0]?.rounds).toHaveLength(TINY.concurrency.rounds)
    expect(rows[1]?.ratios).toEqual([])
    expect(rows[2]?.ratios[0]).toMatchObject({ baseline: expect.stringMatching(/^K=1/) })
    expect(rows[2]?.ratios[0]?.rounds).toHaveLength(TINY.concurrency.rounds)
    expect(rows[2]?.details).toMatchObject({ 'limit min(K, cores)': 2 })
    // Two rounds are fewer than five: the ratio is undecided, whatever it reads.
    expect(rows[2]?.ratios[0]?.verdict).toBe('undecided')
    expect(notes.at(-1)).toMatch(/UV_THREADPOOL_SIZE/)
  })
})

describe('hashing suites: what they leave out, and why', () => {
  test('a variant at a cost setting is left to that setting’s table in the hash suite, kept in lag', async () => {
    let created = 0
    const variant: HashCandidate = {
      ...native,
      id: `${native.id} (cost 10)`,
      variantOf: native.id,
      optionsFor: () => undefined,
      create(options) {
        created++
        return native.create(options)
      },
    }
    const hashers = [native, variant]
    const hash = await hashSuite.run({ ...candidates, hashers }, ctx.hash)
    expect(created).toBe(0)
    expect(hash.rows.some((r) => r.candidate === variant.id)).toBe(false)
    const lag = await lagSuite.run({ ...candidates, hashers }, ctx.lag)
    expect(lag.rows.some((r) => r.candidate === variant.id)).toBe(true)
  })

  test('a configuration slower than the caps is not run, and the notes say why', async () => {
    const hashers = [native, slowed(pureJs)]
    const hash = await hashSuite.run({ ...candidates, hashers }, tightCaps.hash)
    expect(hash.rows.some((r) => r.candidate === 'syn-bcrypt-js-slow')).toBe(false)
    expect(hash.rows.some((r) => r.candidate === native.id)).toBe(true)
    expect(hash.notes).toContainEqual(
      expect.stringMatching(
        /^Not run, over the 0\.01 s quick cap .*: syn-bcrypt-js-slow \(.*\) \([\d.]+ s\)/,
      ),
    )
    const concurrency = await concurrencySuite.run({ ...candidates, hashers }, tightCaps.concurrency)
    expect(concurrency.rows.some((r) => r.candidate === 'syn-bcrypt-js-slow')).toBe(false)
    expect(concurrency.rows.filter((r) => r.candidate === native.id)).toHaveLength(3)
    expect(concurrency.rows.filter((r) => r.candidate === `${native.id} (A/A)`)).toHaveLength(1)
    expect(concurrency.notes).toContainEqual(
      expect.stringMatching(/^Not run, over the 0\.01 s quick cap .*: syn-bcrypt-js-slow \(a burst of K=2\)/),
    )
  })

  test('a setting predicted, from a cheaper one of the same candidate, at over twice the cap is never called', async () => {
    // A bcrypt whose calls take time in proportion to its work, 2^cost: 16 ms at cost 10, 64 ms at 12.
    const called: number[] = []
    const base = syntheticHasher('syn-bcrypt-work', 'bcrypt', 'main-thread', { cost: 12 })
    const proportional: HashCandidate = {
      ...base,
      create(options) {
        const hasher = base.create(options)
        const cost = hasher.info.params.cost as number
        return {
          ...hasher,
          async hash(password: string) {
            called.push(cost)
            await new Promise((resolve) => setTimeout(resolve, 2 ** (cost - 6)))
            return hasher.hash(password)
          },
        }
      },
    }
    const hash = await hashSuite.run({ ...candidates, hashers: [native, proportional] }, tightCaps.hash)
    expect(called).toContain(10)
    expect(called).not.toContain(12)
    // The prediction is 4 × the measured cost-10 call, which a timer never makes shorter than 16 ms; a
    // loaded machine makes it longer, so only its floor is asserted.
    const note = hash.notes.find((n) => n.startsWith('Not run, over the 0.01 s quick cap'))
    const predicted = /syn-bcrypt-work \(.*12.*\) \((\d+\.\d) s\)/.exec(note ?? '')?.[1]
    expect(Number(predicted)).toBeGreaterThanOrEqual(0.1)
  })
})

describe('hashing suites: work predicts a call within one algorithm', () => {
  test('work predicts a call only within one algorithm: a package implementing two is timed in both', async () => {
    // 5 ms per bcrypt call at 2^10 units would predict 1.3 s for scrypt's 2^18: units of different
    // algorithms are not comparable, and the scrypt setting must be called.
    const bcryptPart = syntheticHasher('syn-two', 'bcrypt', 'main-thread', { cost: 10 })
    const scryptPart = syntheticHasher('syn-two', 'scrypt', 'main-thread', { ln: 14, r: 16, p: 1 })
    const called: string[] = []
    const two: HashCandidate = {
      ...bcryptPart,
      optionsFor: (family, params) =>
        family === 'bcrypt' || family === 'scrypt' ? { ...params, algorithm: family } : undefined,
      create(options = {}) {
        const hasher = (options.algorithm === 'scrypt' ? scryptPart : bcryptPart).create(options)
        return {
          ...hasher,
          async hash(password: string) {
            called.push(hasher.info.algorithm)
            if (hasher.info.algorithm === 'bcrypt') await new Promise((resolve) => setTimeout(resolve, 5))
            return hasher.hash(password)
          },
        }
      },
    }
    const hash = await hashSuite.run({ ...candidates, hashers: [native, scrypt, two] }, tightCaps.hash)
    expect(called).toContain('scrypt')
    expect(hash.notes.filter((n) => n.startsWith('syn-two (scrypt'))).toEqual([])
  })

  test("a package implementing two algorithms: each configuration's progress line names its own hasher", async () => {
    const bcryptPart = syntheticHasher('syn-two', 'bcrypt', 'main-thread', { cost: 10 })
    const scryptPart = syntheticHasher('syn-two', 'scrypt', 'main-thread', { ln: 14, r: 16, p: 1 })
    // Like hash-wasm: the package's label is its default configuration's display name.
    const two: HashCandidate = {
      ...bcryptPart,
      label: 'bcrypt (syn-two)',
      optionsFor: (family, params) =>
        family === 'bcrypt' || family === 'scrypt' ? { ...params, algorithm: family } : undefined,
      create(options = {}) {
        const hasher = (options.algorithm === 'scrypt' ? scryptPart : bcryptPart).create(options)
        return { ...hasher, info: { ...hasher.info, displayName: `${hasher.info.algorithm} (syn-two)` } }
      },
    }
    const steps: string[] = []
    const progress = { ...silentProgress(), step: (label: string) => steps.push(label) }
    await hashSuite.run({ ...candidates, hashers: [native, scrypt, two] }, { ...ctx.hash, progress })
    const scryptSteps = steps.filter((s) => s.includes('(scrypt ln=14'))
    expect(scryptSteps.some((s) => s.includes('scrypt (syn-two)'))).toBe(true)
    expect(steps.filter((s) => s.includes('bcrypt (syn-two) (scrypt'))).toEqual([])
  })

  test('stretch: [1] PBKDF2 20k backends, the chain per scrypt backend, and [2] in wall time', async () => {
    // Row [2] starts the real helper process; this synthetic chain never calls its scrypt (the real
    // chain's row [2] is in stretch.test.ts).
    const { rows } = await stretchSuite.run(candidates, ctx.stretch)
    const wall = 'syn-stretch chain, wall time: [2] remote helper vs [3] local'
    expect(rows.map((r) => [r.group, r.label])).toEqual([
      ['[1] PBKDF2-SHA256 20,000 iterations', `${nativeHashers()['pbkdf2-sha256']} (synthetic)`],
      ['syn-stretch chain (scrypt N=2^16 r=8 p=1)', `[3] scrypt: ${nativeHashers().scrypt} (synthetic)`],
      [
        '[1] PBKDF2-SHA256 20,000 iterations',
        `${nativeHashers()['pbkdf2-sha256']} (synthetic) [A/A control]`,
      ],
      [wall, `[3] scrypt: ${nativeHashers().scrypt} (synthetic)`],
      [wall, '[2] scrypt: remote helper (loopback)'],
    ])
    expect(rows[2]?.ratios[0]?.baseline).toBe(`${nativeHashers()['pbkdf2-sha256']} (synthetic)`)
  })
})
