import assert from 'node:assert/strict'
import { ONEPW_VECTOR, sampleEventLoop, sampleRepeated } from '@authlab/conformance'
import { createHasher as createScryptJs } from '@authlab/hash-scrypt-js'
import { createHasher as createWasm } from '@authlab/hash-wasm'
import { describe, test } from 'vitest'
import { createStretcher as createBrowserStretcher } from '../src/browser.js'
import { createStretcher, type OnepwStretcher } from '../src/index.js'

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
const mainSalt = Uint8Array.from(Buffer.from(ONEPW_VECTOR.mainSalt, 'hex'))

async function assertPublishedIntermediates(stretcher: OnepwStretcher): Promise<void> {
  const keys = await stretcher.stretch(ONEPW_VECTOR.email, ONEPW_VECTOR.password, mainSalt)
  assert.equal(hex(keys.k1), ONEPW_VECTOR.k1, 'K1 (first PBKDF2)')
  assert.equal(hex(keys.k2), ONEPW_VECTOR.k2, 'K2 (scrypt)')
  assert.equal(hex(keys.stretchedPW), ONEPW_VECTOR.stretchedPW, 'stretchedPW (second PBKDF2)')
  assert.equal(hex(keys.srpPW) + hex(keys.unwrapBKey), ONEPW_VECTOR.mainKDF, 'HKDF mainKDF output')
}

// ONEPW_VECTOR: Mozilla's published intermediates (sources in @authlab/conformance vectors.ts).
describe('onepw chain reproduces the published intermediate values', () => {
  test('scrypt on node:crypto (default)', () => assertPublishedIntermediates(createStretcher()))
  test('scrypt in WASM (hash-wasm)', () =>
    assertPublishedIntermediates(
      createStretcher({ scrypt: createWasm({ algorithm: 'scrypt', ln: 16, r: 8, p: 1 }) }),
    ))
  test('scrypt in pure JS (scrypt-js)', () =>
    assertPublishedIntermediates(createStretcher({ scrypt: createScryptJs({ ln: 16, r: 8, p: 1 }) })))
  test("the browser entry's defaults: Web Crypto PBKDF2, WASM scrypt, and no node:crypto step", async () => {
    const stretcher = createBrowserStretcher()
    assert.match(stretcher.info.wraps, /^PBKDF2 crypto\.subtle\.deriveBits .*→ scrypt hash-wasm/)
    await assertPublishedIntermediates(stretcher)
  })
})

describe('bad input gets typed errors', () => {
  const stretcher = createStretcher()
  const code = (expected: string) => (error: { code?: string }) => error.code === expected
  test('a scrypt step with other parameters is refused (it would give other keys)', () =>
    assert.throws(
      () => createStretcher({ scrypt: createScryptJs({ ln: 15, r: 8, p: 1 }) }),
      code('ERR_AUTHLAB_INVALID_OPTION'),
    ))
  test('mainSalt must be 32 bytes', () =>
    assert.rejects(stretcher.stretch('a@b.c', 'pw', new Uint8Array(31)), code('ERR_AUTHLAB_INVALID_OPTION')))
  test('empty email', () =>
    assert.rejects(stretcher.stretch('', 'pw', mainSalt), code('ERR_AUTHLAB_INVALID_OPTION')))
  test('empty password', () =>
    assert.rejects(stretcher.stretch('a@b.c', '', mainSalt), code('ERR_AUTHLAB_PASSWORD_POLICY')))
  test('lone surrogate', () =>
    assert.rejects(stretcher.stretch('a@b.c', '\uD800', mainSalt), code('ERR_AUTHLAB_PASSWORD_POLICY')))
  const emailError = (error: { code?: string; message?: string }) =>
    error.code === 'ERR_AUTHLAB_INVALID_OPTION' && /^email /.test(error.message ?? '')
  test.each([
    ['\uD800@example.org', 'a lone high surrogate'],
    ['a@example.org\uDC00', 'a lone low surrogate'],
  ])('an email with %j (%s) is an email error, not a password error', (email) =>
    assert.rejects(stretcher.stretch(email, 'pw', mainSalt), emailError),
  )
  test('an email over 254 octets of UTF-8 is refused, counting octets, not characters', async () => {
    const domain = '@example.org'
    await assert.rejects(
      stretcher.stretch(`${'a'.repeat(255 - domain.length)}${domain}`, 'pw', mainSalt),
      emailError,
    )
    // 121 two-octet characters + 12 = 254 octets from 133 characters: allowed; one more is 256 octets.
    await assert.doesNotReject(stretcher.stretch(`${'é'.repeat(121)}${domain}`, 'pw', mainSalt))
    await assert.rejects(stretcher.stretch(`${'é'.repeat(122)}${domain}`, 'pw', mainSalt), emailError)
  })
  test('a 50 MB email is refused at once', () =>
    assert.rejects(stretcher.stretch(`${'a'.repeat(50 * 2 ** 20)}@example.org`, 'pw', mainSalt), emailError))
  test('an astral character (a valid surrogate pair) is accepted', () =>
    assert.doesNotReject(stretcher.stretch('\u{1F600}@example.org', 'pw', mainSalt)))
})

// The declared runsOn follows the scrypt backend, and is measured like hasherSuite's runs-on check.
describe('declared runsOn matches measured event-loop blocking', () => {
  test('node:crypto backend leaves the event loop free', async () => {
    const stretcher = createStretcher()
    assert.equal(stretcher.info.runsOn, 'threadpool')
    // The chain's cost is fixed by the protocol (scrypt N=2^16): one stretch took 147 ms in CI, under the 150 ms
    // the judgement needs, so stretches run back to back until the sample lasts that long.
    const sample = await sampleRepeated(() => stretcher.stretch('a@b.c', 'pw', mainSalt), 150, 4)
    assert.ok(sample.durationMs >= 150, `too fast to judge: ${sample.durationMs} ms`)
    assert.ok(sample.utilization <= 0.3, `utilization ${sample.utilization}`)
  })
  test('pure-JS backend keeps the event loop busy', async () => {
    const stretcher = createStretcher({ scrypt: createScryptJs({ ln: 16, r: 8, p: 1 }) })
    assert.equal(stretcher.info.runsOn, 'main-thread')
    const sample = await sampleEventLoop(() => stretcher.stretch('a@b.c', 'pw', mainSalt))
    assert.ok(sample.utilization >= 0.7, `utilization ${sample.utilization}`)
  })
})
