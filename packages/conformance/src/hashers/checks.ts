import assert from 'node:assert/strict'
import { type KeyDerivation, type PasswordHasher, RUNS_ON } from '@authlab/core'
import type { Check } from '../register.js'
import { nearMiss, rejectsWithCode, within } from './assertions.js'
import { sampleRepeated } from './event-loop.js'
import { absurdCases, malformedCases } from './hostile.js'
import type { ResolvedHasherCheckOptions } from './options.js'
import { BCRYPT_VECTORS, SCRYPT_VECTORS } from './vectors.js'

/**
 * Each check builds its own hashers and throws an AssertionError naming what broke. They are exported
 * so the self-tests can prove each one fails on a deliberately broken hasher.
 */
export type HasherCheck = (options: ResolvedHasherCheckOptions) => Promise<void>

const POLICY = 'ERR_AUTHLAB_PASSWORD_POLICY'
const encoder = new TextEncoder()

const cheap = (o: ResolvedHasherCheckOptions) => o.factory(o.cheapParams)
const accepts = (o: ResolvedHasherCheckOptions, password: string) => {
  const bytes = encoder.encode(password)
  const { minBytes, maxBytes, allowNul } = o.passwordPolicy
  return bytes.length >= minBytes && bytes.length <= maxBytes && (allowNul || !bytes.includes(0))
}

/** `info` is complete and honest, and cost parameters use the keys they were configured with. */
export const metadata: HasherCheck = async (o) => {
  const { info } = cheap(o)
  assert.ok(
    info.name && info.displayName && info.wraps && info.algorithm,
    'info needs name, displayName, wraps, algorithm',
  )
  assert.ok(
    (RUNS_ON as readonly string[]).includes(info.runsOn),
    `info.runsOn "${info.runsOn}" is not one of ${RUNS_ON.join(', ')}`,
  )
  for (const [key, value] of Object.entries(o.cheapParams)) {
    assert.equal(info.params[key], value, `info.params.${key} should report the configured ${value}`)
  }
}

/** Published answers verify (RFC 7914, passlib, the Argon2 reference, OpenBSD/Openwall bcrypt). */
export const knownAnswers: HasherCheck = async (o) => {
  assert.ok(
    o.vectors.length + o.kdfVectors.length > 0,
    'no known-answer vectors given: pass `vectors` or `kdfVectors`',
  )
  const hasher = cheap(o)
  for (const { password, encoded, source } of o.vectors) {
    if (!accepts(o, password)) {
      await rejectsWithCode(
        () => hasher.verify(encoded, password),
        POLICY,
        `${source}: policy-refused password`,
      )
      continue
    }
    assert.equal(await hasher.verify(encoded, password), true, `${source}: ${encoded} should verify`)
    assert.equal(
      await hasher.verify(encoded, nearMiss(password)),
      false,
      `${source}: a near-miss password verified`,
    )
  }
  for (const { password, salt, params, length, hex, source } of o.kdfVectors) {
    const kdf = o.factory(params) as PasswordHasher & Partial<KeyDerivation>
    assert.equal(typeof kdf.derive, 'function', 'kdfVectors given but the hasher has no derive()')
    const derived = await (kdf as KeyDerivation).derive(password, salt, length)
    assert.equal(Buffer.from(derived).toString('hex'), hex, `${source}: derive() gave a different key`)
  }
}

/** hash → verify is true, for string and byte passwords; two hashes of one password differ (salt). */
export const roundTrip: HasherCheck = async (o) => {
  const hasher = cheap(o)
  const password = 'correct horse battery staple'
  const first = await hasher.hash(password)
  const second = await hasher.hash(encoder.encode(password))
  assert.equal(typeof first, 'string', 'hash() must return a string')
  assert.ok(
    first.startsWith('$'),
    `encoded hash should be modular crypt / PHC ("$..."), got ${first.slice(0, 20)}`,
  )
  assert.notEqual(first, second, 'two hashes of one password are identical: no random salt')
  assert.equal(await hasher.verify(first, password), true, 'hash(string) does not verify')
  assert.equal(await hasher.verify(second, password), true, 'hash(bytes) does not verify as a string')
  assert.equal(
    await hasher.verify(first, encoder.encode(password)),
    true,
    'verify(bytes) disagrees with verify(string)',
  )
}

/** Any other password, however close, is false. */
export const wrongPassword: HasherCheck = async (o) => {
  const hasher = cheap(o)
  const password = 'Tr0ub4dor&3'
  const encoded = await hasher.hash(password)
  for (const other of ['Tr0ub4dor&4', 'tr0ub4dor&3', 'Tr0ub4dor&', 'Tr0ub4dor&3 ', 'x']) {
    assert.equal(
      await hasher.verify(encoded, other),
      false,
      `${JSON.stringify(other)} verified against "${password}"`,
    )
  }
}

/** Non-ASCII passwords work byte-exactly (no normalization), NUL bytes per policy, lone surrogates refused. */
export const unicodeAndNul: HasherCheck = async (o) => {
  const hasher = cheap(o)
  for (const password of ['pässwörd', '密码🔑', 'ἓν οἶδα']) {
    const encoded = await hasher.hash(password)
    assert.equal(await hasher.verify(encoded, password), true, `${password} does not verify`)
    assert.equal(
      await hasher.verify(encoded, nearMiss(password)),
      false,
      `a near miss of ${password} verified`,
    )
  }
  // NFC "é" and NFD "e + combining acute" are different byte strings and must stay different passwords.
  const nfc = await hasher.hash('caf\u00e9')
  assert.equal(await hasher.verify(nfc, 'cafe\u0301'), false, 'NFD form verified against an NFC hash')
  await rejectsWithCode(() => hasher.hash('a\uD800b'), POLICY, 'a lone surrogate (no UTF-8 form)')
  if (o.passwordPolicy.allowNul) {
    const encoded = await hasher.hash('a\u0000b')
    assert.equal(await hasher.verify(encoded, 'a\u0000b'), true, 'password with NUL does not verify')
    assert.equal(await hasher.verify(encoded, 'a'), false, 'password truncated at NUL verified')
    assert.equal(await hasher.verify(encoded, 'a\u0000c'), false, 'bytes after NUL are ignored')
  } else {
    await rejectsWithCode(
      () => hasher.hash('a\u0000b'),
      POLICY,
      'hash() of a password with NUL (policy refuses NUL)',
    )
    const encoded = await hasher.hash('a')
    await rejectsWithCode(() => hasher.verify(encoded, 'a\u0000b'), POLICY, 'verify() of a password with NUL')
  }
}

/** The empty password follows the declared policy: refused with PasswordPolicyError, or hashed properly. */
export const emptyPassword: HasherCheck = async (o) => {
  const hasher = cheap(o)
  if (o.passwordPolicy.minBytes === 0) {
    const encoded = await hasher.hash('')
    assert.equal(await hasher.verify(encoded, ''), true, 'empty password does not verify')
    assert.equal(await hasher.verify(encoded, 'a'), false, '"a" verified against the empty password')
  } else {
    await rejectsWithCode(() => hasher.hash(''), POLICY, 'hash("") under a policy refusing it')
    await rejectsWithCode(async () => hasher.verify(await hasher.hash('a'), ''), POLICY, 'verify(h, "")')
  }
}

/** Up to maxBytes every byte counts; beyond, a PasswordPolicyError — never silent truncation (bcrypt's 72). */
export const lengthPolicy: HasherCheck = async (o) => {
  const hasher = cheap(o)
  const { maxBytes } = o.passwordPolicy
  const longest = 'a'.repeat(maxBytes)
  const encoded = await hasher.hash(longest)
  assert.equal(await hasher.verify(encoded, longest), true, `a ${maxBytes}-byte password does not verify`)
  assert.equal(
    await hasher.verify(encoded, `${longest.slice(1)}b`),
    false,
    `the ${maxBytes}th byte is ignored`,
  )
  await rejectsWithCode(() => hasher.hash(`${longest}b`), POLICY, `hash() of ${maxBytes + 1} bytes`)
  await rejectsWithCode(
    () => hasher.verify(encoded, `${longest}b`),
    POLICY,
    `verify() of ${maxBytes + 1} bytes`,
  )
  if (maxBytes > 72) {
    // Differ only after byte 72: a hasher declaring more than bcrypt's limit must not truncate like it.
    const tail = await hasher.hash(`${'a'.repeat(72)}bbbb`)
    assert.equal(
      await hasher.verify(tail, `${'a'.repeat(72)}cccc`),
      false,
      'bytes after the 72nd are ignored',
    )
  }
}

/** A 1 MB password is a PasswordPolicyError or a correct result, within the bound either way. */
export const oversizedPassword: HasherCheck = async (o) => {
  const hasher = cheap(o)
  const huge = 'x'.repeat(2 ** 20)
  const bound = o.bounds.oversizedMs
  const small = await hasher.hash('small')
  if (!accepts(o, huge)) {
    await within(bound, 'hash(1 MB)', () =>
      rejectsWithCode(() => hasher.hash(huge), POLICY, 'hash() of 1 MB'),
    )
    await within(bound, 'verify(h, 1 MB)', () =>
      rejectsWithCode(() => hasher.verify(small, huge), POLICY, 'verify() of 1 MB'),
    )
    return
  }
  const encoded = await within(bound, 'hash(1 MB)', () => hasher.hash(huge))
  assert.equal(
    await within(bound, 'verify(1 MB)', () => hasher.verify(encoded, huge)),
    true,
    '1 MB password does not verify',
  )
  const changed = `${huge.slice(0, -1)}y`
  assert.equal(
    await within(bound, 'verify(1 MB, last byte changed)', () => hasher.verify(encoded, changed)),
    false,
    'last byte of 1 MB ignored',
  )
}

/** Malformed and absurd stored hashes get typed errors within milliseconds, before any work. */
export const hostileHashes: HasherCheck = async (o) => {
  const hasher = cheap(o)
  const genuine = await hasher.hash('hostile')
  const absurd = absurdCases(hasher.info.algorithm, genuine, o.absurdParams)
  assert.ok(
    absurd?.length,
    `no absurd-parameter cases for algorithm "${hasher.info.algorithm}": pass absurdParams`,
  )
  for (const { label, encoded, code } of [...malformedCases(genuine), ...absurd]) {
    await within(o.bounds.hostileMs, `verify(${label})`, () =>
      rejectsWithCode(() => hasher.verify(encoded, 'hostile'), code, label),
    )
  }
}

/** needsRehash is true exactly when a stored parameter is weaker than configured, or the algorithm differs. */
export const needsRehash: HasherCheck = async (o) => {
  const weak = cheap(o)
  const strong = o.factory(o.strongerParams)
  const weakHash = await weak.hash('rehash me')
  const strongHash = await strong.hash('rehash me')
  assert.equal(weak.needsRehash(weakHash), false, 'a hash made with the configured parameters needs a rehash')
  assert.equal(
    strong.needsRehash(strongHash),
    false,
    'a hash made with the configured parameters needs a rehash',
  )
  assert.equal(weak.needsRehash(strongHash), false, 'a stronger stored hash would be downgraded')
  assert.equal(strong.needsRehash(weakHash), true, 'a weaker stored hash is not flagged')
  const raised = Object.keys(o.strongerParams).filter((k) => o.strongerParams[k] !== o.cheapParams[k])
  assert.ok(raised.length > 0, 'strongerParams must raise at least one parameter over cheapParams')
  for (const key of raised) {
    const oneUp = o.factory({ ...o.cheapParams, [key]: o.strongerParams[key] as number })
    assert.equal(oneUp.needsRehash(weakHash), true, `raising only ${key} is not flagged`)
  }
  const foreign = weak.info.algorithm === 'bcrypt' ? SCRYPT_VECTORS[0] : BCRYPT_VECTORS[0]
  assert.equal(
    weak.needsRehash(foreign?.encoded as string),
    true,
    'a hash of another algorithm is not flagged',
  )
}

/** Every peer verifies this hasher's hashes and this hasher verifies every peer's. */
export const crossImplementation: HasherCheck = async (o) => {
  const hasher = cheap(o)
  const password = 'pässwörd 🔑'
  for (const peer of o.peers) {
    const ours = await hasher.hash(password)
    const theirs = await peer.hash(password)
    assert.equal(
      await peer.verify(ours, password),
      true,
      `${peer.info.name} rejects ${hasher.info.name}'s ${ours}`,
    )
    assert.equal(
      await hasher.verify(theirs, password),
      true,
      `${hasher.info.name} rejects ${peer.info.name}'s ${theirs}`,
    )
    assert.equal(
      await peer.verify(ours, nearMiss(password)),
      false,
      `${peer.info.name} accepts a wrong password`,
    )
    assert.equal(
      await hasher.verify(theirs, nearMiss(password)),
      false,
      `a wrong password verified on ${peer.info.name}'s hash`,
    )
  }
}

/** Event-loop utilization above which a hash counts as computing on the main thread. */
const BUSY = 0.5

/** At most this many back-to-back hashes make up the runs-on sample on a machine faster than the one that set blockingParams. */
const MAX_BLOCKING_CALLS = 4

/**
 * `info.runsOn` is true. During ≥ 150 ms of hashing at blockingParams: `main-thread` must keep the event
 * loop busy more than half the time (whether in one block or in chunks); every other value must leave it
 * idle more than half the time, with no timer held up longer than 50 ms or 3/4 of the sample, whichever is
 * more (a blocking hash holds it up for all of it). A hash on the main thread reads near 1 and one off
 * it near 0, so the midpoint leaves each side the most room for a loaded machine, whose timer callbacks
 * and garbage collection add busy time to an idle loop. Utilization is the main signal because it does
 * not move when a loaded machine deschedules the whole process.
 * A CPU that is momentarily faster must not fail the check: hashes repeat back to back (up to
 * MAX_BLOCKING_CALLS) until the sample lasts long enough; only a setting too cheap even then fails.
 */
export const runsOn: HasherCheck = async (o) => {
  const hasher = o.blockingParams ? o.factory(o.blockingParams) : o.factory()
  await hasher.hash('warm-up') // JIT, WASM compilation, worker start-up are not the steady state
  const minMs = o.bounds.minBlockingHashMs
  const sample = await sampleRepeated(() => hasher.hash('event loop'), minMs, MAX_BLOCKING_CALLS)
  const seen = `${sample.calls} hash(es) took ${sample.durationMs.toFixed(0)} ms, max event-loop delay ${sample.maxDelayMs.toFixed(1)} ms, utilization ${sample.utilization.toFixed(2)}`
  assert.ok(
    sample.durationMs >= minMs,
    `${seen}: too fast to judge, raise blockingParams so a hash takes ≥ ${minMs} ms`,
  )
  if (hasher.info.runsOn === 'main-thread') {
    assert.ok(sample.utilization > BUSY, `declares main-thread but the event loop stayed free (${seen})`)
  } else {
    assert.ok(
      sample.utilization < BUSY && sample.maxDelayMs <= Math.max(50, sample.durationMs * 0.75),
      `declares ${hasher.info.runsOn} but blocks the event loop (${seen})`,
    )
  }
}

/** The checks `hasherSuite` registers, each with its test title. */
export const hasherChecks = {
  metadata: { title: 'declares complete metadata with the configured cost parameters', run: metadata },
  knownAnswers: { title: 'verifies the published known-answer vectors', run: knownAnswers },
  roundTrip: { title: 'hash → verify round trip (string and bytes), salted', run: roundTrip },
  wrongPassword: { title: 'wrong and near-miss passwords verify false', run: wrongPassword },
  unicodeAndNul: { title: 'unicode byte-exact, NUL per policy, lone surrogates refused', run: unicodeAndNul },
  emptyPassword: { title: 'empty password follows the declared policy', run: emptyPassword },
  lengthPolicy: {
    title: 'every byte up to the policy maximum counts; beyond it PasswordPolicyError, never truncation',
    run: lengthPolicy,
  },
  oversizedPassword: {
    title: '1 MB password: clear error or correct result, no stall',
    run: oversizedPassword,
  },
  hostileHashes: {
    title: 'malformed and absurd stored hashes get typed errors within 1 s',
    run: hostileHashes,
  },
  needsRehash: {
    title: 'needsRehash exactly when stored parameters are weaker or the algorithm differs',
    run: needsRehash,
  },
  crossImplementation: {
    title: 'peers verify each other’s hashes',
    run: crossImplementation,
    applies: (o) => o.peers.length > 0,
  },
  runsOn: { title: 'declared runsOn matches measured event-loop blocking', run: runsOn },
} as const satisfies Record<string, Check<ResolvedHasherCheckOptions>>
