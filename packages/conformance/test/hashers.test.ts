import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { type PasswordHasher, type RawKdf, resolvePasswordPolicy } from '@authlab/core'
import { describe, test } from 'vitest'
import {
  type Check,
  type HasherCheckOptions,
  hasherChecks,
  hasherSuite,
  PBKDF2_SHA256_KDF_VECTORS,
  PBKDF2_SHA256_VECTORS,
  type ResolvedHasherCheckOptions,
  resolveHasherOptions,
} from '../src/index.js'
import { fixture, mainThreadPbkdf2, patched, sleep, threadpoolPbkdf2 } from './hashers-fixtures.js'

const base: HasherCheckOptions = {
  factory: (params) => fixture(params),
  cheapParams: { iterations: 1000 },
  strongerParams: { iterations: 2000 },
  blockingParams: { iterations: 1_500_000 },
  vectors: PBKDF2_SHA256_VECTORS,
  kdfVectors: PBKDF2_SHA256_KDF_VECTORS,
  peers: [fixture()],
}

// The correct fixture passes the whole suite: the checks can pass.
hasherSuite({ ...base, test, name: 'reference fixture' })

/** Runs one check with `overrides` and asserts it fails with an AssertionError (not a crash). */
async function mustFail(
  check: Check<ResolvedHasherCheckOptions>,
  overrides: Partial<HasherCheckOptions>,
  why: RegExp,
): Promise<void> {
  await assert.rejects(
    async () => check.run(resolveHasherOptions({ ...base, ...overrides })),
    (error: Error) => {
      assert.equal(
        error.name,
        'AssertionError',
        `expected an AssertionError, got ${error.name}: ${error.message}`,
      )
      assert.match(error.message, why)
      return true
    },
  )
}

const broken = (patch: (h: PasswordHasher) => Partial<PasswordHasher>) => ({
  factory: (params?: Record<string, number>) => {
    const good = fixture(params)
    return patched(good, patch(good))
  },
})

const sha512: RawKdf = async (password, salt, params, length) =>
  createHash('sha512')
    .update(password)
    .update(salt)
    .update(String(params.iterations))
    .digest()
    .subarray(0, length)

describe('each hasher check fails on a deliberately broken hasher', () => {
  const c = hasherChecks

  test('metadata: params reported under other keys', () =>
    mustFail(
      c.metadata,
      broken((h) => ({ info: { ...h.info, params: { rounds: 1000 } } })),
      /info\.params\.iterations/,
    ))
  test('metadata: unknown runsOn', () =>
    mustFail(
      c.metadata,
      broken((h) => ({ info: { ...h.info, runsOn: 'gpu' as never } })),
      /runsOn/,
    ))

  test('knownAnswers: a different KDF', () =>
    mustFail(c.knownAnswers, { factory: (p) => fixture(p, { kdf: sha512 }) }, /should verify/))
  test('knownAnswers: derive() off', () =>
    mustFail(c.knownAnswers, { vectors: [], factory: (p) => fixture(p, { kdf: sha512 }) }, /derive\(\) gave/))
  test('knownAnswers: no vectors at all', () =>
    mustFail(c.knownAnswers, { vectors: [], kdfVectors: [] }, /no known-answer/))

  test('roundTrip: verify always false', () =>
    mustFail(
      c.roundTrip,
      broken(() => ({ verify: async () => false })),
      /does not verify/,
    ))
  test('roundTrip: no salt', () => {
    const unsalted: RawKdf = (password, _salt, params, length) =>
      threadpoolPbkdf2(password, new Uint8Array(16), params, length)
    const fixed = (p?: Record<string, number>) => {
      const good = fixture(p, { kdf: unsalted })
      return patched(good, {
        hash: async (pw) => (await good.hash(pw)).replace(/\$[^$]+\$([^$]+)$/, '$AAAAAAAAAAAAAAAAAAAAAA$$$1'),
      })
    }
    return mustFail(c.roundTrip, { factory: fixed }, /no random salt/)
  })

  test('wrongPassword: verify always true', () =>
    mustFail(
      c.wrongPassword,
      broken(() => ({ verify: async () => true })),
      /verified against/,
    ))

  test('unicodeAndNul: truncation at NUL', () => {
    const cString: RawKdf = (password, salt, params, length) => {
      const nul = password.indexOf(0)
      return threadpoolPbkdf2(nul < 0 ? password : password.subarray(0, nul), salt, params, length)
    }
    return mustFail(c.unicodeAndNul, { factory: (p) => fixture(p, { kdf: cString }) }, /truncated at NUL/)
  })
  test('unicodeAndNul: silent NFC normalization', () =>
    mustFail(
      c.unicodeAndNul,
      broken((h) => ({
        hash: (pw) => h.hash(typeof pw === 'string' ? pw.normalize('NFC') : pw),
        verify: (e, pw) => h.verify(e, typeof pw === 'string' ? pw.normalize('NFC') : pw),
      })),
      /NFD form verified/,
    ))
  test('unicodeAndNul: NUL accepted although the declared policy refuses it', () =>
    mustFail(c.unicodeAndNul, { passwordPolicy: resolvePasswordPolicy({ allowNul: false }) }, /NUL/))

  test('emptyPassword: hashes "" although the policy refuses it', () =>
    mustFail(c.emptyPassword, { factory: (p) => fixture(p, { policy: { minBytes: 0 } }) }, /hash\(""\)/))

  test('lengthPolicy: silent truncation to 72 bytes', () => {
    const truncating: RawKdf = (password, salt, params, length) =>
      threadpoolPbkdf2(password.subarray(0, 72), salt, params, length)
    return mustFail(
      c.lengthPolicy,
      { factory: (p) => fixture(p, { kdf: truncating }) },
      /byte is ignored|after the 72nd/,
    )
  })
  test('lengthPolicy: declares 72 bytes but takes more', () =>
    mustFail(c.lengthPolicy, { passwordPolicy: resolvePasswordPolicy({ maxBytes: 72 }) }, /73 bytes/))

  test('oversizedPassword: accepted 1 MB but reads only its first kilobyte', () => {
    const firstKilobyte: RawKdf = (password, salt, params, length) =>
      threadpoolPbkdf2(password.subarray(0, 1024), salt, params, length)
    const policy = { maxBytes: 2 ** 21 }
    return mustFail(
      c.oversizedPassword,
      {
        passwordPolicy: resolvePasswordPolicy(policy),
        factory: (p) => fixture(p, { kdf: firstKilobyte, policy }),
      },
      /last byte of 1 MB ignored/,
    )
  })
  test('oversizedPassword: stalls', () => {
    const stalling: RawKdf = async (password, salt, params, length) => {
      if (password.length > 100_000) await sleep(2000)
      return threadpoolPbkdf2(password, salt, params, length)
    }
    const policy = { maxBytes: 2 ** 21 }
    return mustFail(
      c.oversizedPassword,
      {
        passwordPolicy: resolvePasswordPolicy(policy),
        factory: (p) => fixture(p, { kdf: stalling, policy }),
        bounds: { oversizedMs: 300 },
      },
      /no answer within 300 ms/,
    )
  })

  test('hostileHashes: no caps, so i=10^10 runs (simulated by a 2 s wait)', () => {
    const runaway: RawKdf = async (password, salt, params, length) => {
      if ((params.iterations as number) > 1e6) await sleep(2000)
      return threadpoolPbkdf2(password, salt, { iterations: 1 }, length)
    }
    return mustFail(
      c.hostileHashes,
      {
        factory: (p) => fixture(p, { kdf: runaway, limits: { iterations: 1e11, units: 1e12 } }),
        bounds: { hostileMs: 200 },
      },
      /i=10\^10.*no answer within 200 ms/,
    )
  })
  test('hostileHashes: typed error, but only after blocking the thread for 300 ms', () =>
    mustFail(
      c.hostileHashes,
      {
        ...broken((h) => ({
          verify: (e, pw) => {
            const start = Date.now()
            while (String(e).includes('i=10000000000') && Date.now() - start < 300) {
              // busy: synchronous work that no timer can interrupt
            }
            return h.verify(e, pw)
          },
        })),
        bounds: { hostileMs: 200 },
      },
      /i=10\^10.*answered after/,
    ))
  test('hostileHashes: untyped errors', () =>
    mustFail(
      c.hostileHashes,
      broken((h) => ({
        verify: async (e, pw) => {
          try {
            return await h.verify(e, pw)
          } catch {
            throw new Error('bad hash')
          }
        },
      })),
      /expected ERR_AUTHLAB_INVALID_HASH, got Error/,
    ))

  test('hostileHashes: an algorithm without built-in over-cap cases must bring its own', () =>
    mustFail(
      c.hostileHashes,
      broken((h) => ({ info: { ...h.info, algorithm: 'pbkdf2-sha512' } })),
      /no absurd-parameter cases for algorithm "pbkdf2-sha512"/,
    ))
  test('hostileHashes: own over-cap cases are used, and must be refused', () =>
    mustFail(
      c.hostileHashes,
      {
        absurdParams: (genuine) => [
          { label: 'i=2000 (under the cap)', encoded: genuine.replace(/i=\d+/, 'i=2000') },
        ],
      },
      /i=2000 \(under the cap\): expected ERR_AUTHLAB_PARAMETER_LIMIT, but it succeeded/,
    ))

  test('needsRehash: never', () =>
    mustFail(
      c.needsRehash,
      broken(() => ({ needsRehash: () => false })),
      /not flagged/,
    ))
  test('needsRehash: always', () =>
    mustFail(
      c.needsRehash,
      broken(() => ({ needsRehash: () => true })),
      /needs a rehash/,
    ))
  test('needsRehash: rehash on any difference (downgrades stronger hashes)', () =>
    mustFail(
      c.needsRehash,
      broken((h) => ({ needsRehash: (e) => !e.includes(`i=${h.info.params.iterations}$`) })),
      /downgraded/,
    ))

  test('crossImplementation: a peer of another KDF', () =>
    mustFail(c.crossImplementation, { peers: [fixture(undefined, { kdf: sha512 })] }, /rejects/))

  test('runsOn: declares threadpool but computes on the main thread', () =>
    mustFail(c.runsOn, { factory: (p) => fixture(p, { kdf: mainThreadPbkdf2 }) }, /blocks the event loop/))
  test('runsOn: declares main-thread but leaves the loop free', () =>
    mustFail(c.runsOn, { factory: (p) => fixture(p, { runsOn: 'main-thread' }) }, /stayed free/))
  test('runsOn: too cheap to judge', () =>
    mustFail(c.runsOn, { blockingParams: { iterations: 1000 } }, /too fast to judge/))
})
