import { createHasher as argon2id } from '@authlab/hash-argon2'
import { describe, expect, test } from 'vitest'
import { createPasswordContext, identifyHash } from '../../src/index.js'
import {
  CURRENT,
  contextForEveryStack,
  firebaseStored,
  keycloakCredential,
  MADE,
  PUBLISHED,
  type Vector,
  wrong,
} from './fixtures.js'

const context = contextForEveryStack()

/**
 * Each vector verifies with its password (and the first verify hands back a current hash, which then
 * verifies without a further upgrade), and a wrong password is `valid: false`, never an error.
 */
async function expectVerifiesAndUpgrades(vectors: readonly Vector[], family: string | RegExp) {
  const results = await Promise.all(
    vectors.map(async (v) => {
      const right = await context.verify(v.encoded, v.password)
      const again = right.rehashed ? await context.verify(right.rehashed, v.password) : undefined
      const refused = await context.verify(v.encoded, wrong(v.password))
      return { maker: v.maker, family: identifyHash(v.encoded), right, again, refused }
    }),
  )
  for (const r of results) {
    expect(r.family, r.maker).toMatch(family)
    expect(r.right, r.maker).toEqual({ valid: true, rehashed: expect.stringMatching(CURRENT) })
    expect(r.again, r.maker).toEqual({ valid: true })
    expect(r.refused, r.maker).toEqual({ valid: false })
  }
}

const asVectors = (maker: string, password: string, encoded: readonly string[]): Vector[] =>
  encoded.map((e) => ({ maker, password, encoded: e }))

describe('hashes made by each stack verify, upgrade on the first right login and refuse a wrong password', () => {
  test("Django's make_password: pbkdf2_sha256, pbkdf2_sha1, argon2 (id and i), bcrypt_sha256, bcrypt, scrypt", async () => {
    expect(new Set(MADE.django.map((v) => v.maker)).size).toBe(8)
    await expectVerifiesAndUpgrades(MADE.django, 'django')
  })

  test("PHP's password_hash ($2y$, $argon2i$, $argon2id$) and WordPress 6.8's $wp$", async () => {
    await expectVerifiesAndUpgrades(MADE.php, /^(bcrypt|argon2i|argon2id|phpass)$/)
  })

  test('bcrypt as Rails ($2a$), Auth0 and Okta exports carry it', async () => {
    await expectVerifiesAndUpgrades(MADE.bcrypt, 'bcrypt')
  })

  test("ASP.NET Core Identity's own PasswordHasher vectors (v2; v3 with HMACSHA1, SHA256, SHA512)", async () => {
    const { password, vectors } = PUBLISHED.aspnet
    await expectVerifiesAndUpgrades(
      asVectors(
        'aspnetcore',
        password,
        vectors.map((v) => v.encoded),
      ),
      'aspnet-identity',
    )
  })

  test("ASP.NET Core Identity's own failure cases fail: not valid, or a typed error for a malformed payload", async () => {
    // A v3 subkey is the rest of the payload, so trailing bytes make a longer subkey that cannot match
    // (the hasher answers Failed); a v2 payload has one length, and a v3 subkey is at least 16 bytes.
    const notValid = ['incorrect password (v2)', 'incorrect password (v3)', 'extra data at end (v3)']
    for (const { why, encoded } of PUBLISHED.aspnet.failureCases) {
      const outcome = await context
        .verify(encoded, PUBLISHED.aspnet.password)
        .catch((error: unknown) => error)
      if (notValid.includes(why)) expect(outcome, why).toEqual({ valid: false })
      else expect(outcome, why).toMatchObject({ code: 'ERR_AUTHLAB_INVALID_HASH' })
    }
  })

  test("Spring Security's own vectors: {bcrypt}, {pbkdf2}, {scrypt}, {argon2} and their @SpringSecurity_v5_8 ids", async () => {
    const { delegating, argon2Encoder } = PUBLISHED.spring
    await expectVerifiesAndUpgrades(
      asVectors('spring', delegating.password, delegating.vectors),
      'spring-security',
    )
    await expectVerifiesAndUpgrades(
      asVectors('spring', argon2Encoder.password, argon2Encoder.vectors),
      'spring-security',
    )
  })

  test("Firebase's own scrypt vectors, in each of their three projects' hash configs", async () => {
    // Four users of each project: every project's config is exercised, in a fraction of the time.
    const checks = PUBLISHED.firebase.projects.flatMap((project) => {
      const own = contextForEveryStack({}, project.hashConfig)
      return project.users.slice(0, 4).map(async (user) => ({
        right: await own.verify(firebaseStored(user), user.password),
        refused: await own.verify(firebaseStored(user), wrong(user.password)),
      }))
    })
    for (const { right, refused } of await Promise.all(checks)) {
      expect(right).toEqual({ valid: true, rehashed: expect.stringMatching(CURRENT) })
      expect(refused).toEqual({ valid: false })
    }
  })

  test('phpass $P$ (WordPress) and $H$ (phpBB), made by passlib', async () => {
    await expectVerifiesAndUpgrades(MADE.phpass, 'phpass')
  })

  test('Keycloak credentials: pbkdf2, pbkdf2-sha256, pbkdf2-sha512, argon2, and two made by Keycloak itself', async () => {
    await expectVerifiesAndUpgrades(MADE.keycloak, 'keycloak')
    const data = PUBLISHED.keycloak
    await expectVerifiesAndUpgrades(
      asVectors(
        'Keycloak 27,500',
        data.password,
        data.vectors.map((v) => keycloakCredential(data, v)),
      ),
      'keycloak',
    )
  })
})

test('a password NFKC would change is checked as typed, as every one of these stacks hashed it', async () => {
  const typed = '\ufb01\u00b2 \u00b5 \uff50\uff41\uff53\uff53\uff11'
  const all = [...MADE.django, ...MADE.php, ...MADE.bcrypt, ...MADE.phpass, ...MADE.keycloak]
  const madeFromIt = all.filter((v) => v.password === typed)
  expect(madeFromIt.length).toBeGreaterThanOrEqual(20)
  for (const v of madeFromIt) {
    expect((await context.verify(v.encoded, typed)).valid, v.maker).toBe(true)
    expect((await context.verify(v.encoded, typed.normalize('NFKC'))).valid, v.maker).toBe(false)
  }
})

test("PHP's $argon2id$ with argon2id as current is checked as typed, and gains its marker at login", async () => {
  const typed = '\ufb01\u00b2 \u00b5 \uff50\uff41\uff53\uff53\uff11'
  const onArgon2id = createPasswordContext({ current: argon2id({ m: 64, t: 1, p: 1 }) })
  const madeFromIt = MADE.php.filter((v) => v.password === typed && v.encoded.startsWith('$argon2id$'))
  expect(madeFromIt.length).toBeGreaterThan(0)
  for (const v of madeFromIt) {
    const right = await onArgon2id.verify(v.encoded, typed)
    expect(right, v.maker).toEqual({ valid: true, rehashed: expect.stringMatching(/^nfc:\$argon2id\$/) })
    expect((await onArgon2id.verify(v.encoded, typed.normalize('NFKC'))).valid, v.maker).toBe(false)
  }
})
