import { expect, test } from 'vitest'
import { firebaseScrypt } from '../../src/index.js'
import { contextForEveryStack, firebaseStored, MADE, PUBLISHED } from './fixtures.js'

const context = contextForEveryStack()
const INVALID = 'ERR_AUTHLAB_INVALID_HASH'
const LIMIT = 'ERR_AUTHLAB_PARAMETER_LIMIT'

const genuine = (vectors: readonly { maker: string; encoded: string }[], maker: string) =>
  vectors.find((v) => v.maker.startsWith(maker))?.encoded as string

const b64 = (bytes: Uint8Array | number[]) => Buffer.from(Uint8Array.from(bytes)).toString('base64')

/** An ASP.NET Identity v3 payload with the given header fields and lengths. */
function identityV3(prf: number, iterations: number, saltLength: number, bytes: number): string {
  const payload = new Uint8Array(bytes)
  const view = new DataView(payload.buffer)
  payload[0] = 1
  view.setUint32(1, prf)
  view.setUint32(5, iterations)
  view.setUint32(9, saltLength)
  return b64(payload)
}

const keycloak = (credential: Record<string, unknown>, secret: unknown, data: unknown) =>
  JSON.stringify({
    type: 'password',
    secretData: typeof secret === 'string' ? secret : JSON.stringify(secret),
    credentialData: JSON.stringify(data),
    ...credential,
  })
const SALT16 = b64(new Array(16).fill(7))
const VALUE32 = b64(new Array(32).fill(9))
const pbkdf2Data = (hashIterations: unknown, algorithm = 'pbkdf2-sha256') => ({ hashIterations, algorithm })
const argon2Data = (memory: string) => ({
  hashIterations: 1,
  algorithm: 'argon2',
  additionalParameters: {
    hashLength: ['32'],
    memory: [memory],
    type: ['id'],
    version: ['1.3'],
    parallelism: ['1'],
  },
})

const django = genuine(MADE.django, 'pbkdf2_sha256')
const djangoArgon = genuine(MADE.django, 'argon2 argon2id')
const djangoScrypt = genuine(MADE.django, 'scrypt')
const phpassP = genuine(MADE.phpass, '$P$')
const wp = genuine(MADE.php, 'WordPress')
const argon2i = genuine(MADE.php, 'password_hash PASSWORD_ARGON2I m=64')
const firebaseUser = PUBLISHED.firebase.projects[0]?.users[0] as { salt: string; passwordHash: string }

/** Ten or more malformed and hostile stored values per family, each with the typed error it must get. */
const HOSTILE: Record<string, ReadonlyArray<readonly [string, string, string]>> = {
  django: [
    ['a field missing', django.split('$').slice(0, 3).join('$'), INVALID],
    ['iterations 0', django.replace('$1000$', '$0$'), INVALID],
    ['iterations 10^12', django.replace('$1000$', '$1000000000000$'), INVALID],
    ['iterations 4294967295 (over the cap)', django.replace('$1000$', '$4294967295$'), LIMIT],
    ['hash not base64', `${django.slice(0, -4)}*!*=`, INVALID],
    ['hash 16 bytes', `${django.split('$').slice(0, 3).join('$')}$${b64(new Array(16).fill(1))}`, INVALID],
    ['a space in the salt', django.replace(/\$1000\$[^$]{3}/, '$1000$a b'), INVALID],
    ['argon2 m=4 GiB', djangoArgon.replace('m=64', 'm=4194304'), LIMIT],
    ['argon2 version 16', djangoArgon.replace('v=19', 'v=16'), INVALID],
    ['scrypt N=2^30', djangoScrypt.replace('scrypt$16$', 'scrypt$1073741824$'), LIMIT],
    ['scrypt N not a power of two', djangoScrypt.replace('scrypt$16$', 'scrypt$1000$'), INVALID],
    ['bcrypt_sha256 cost 31', genuine(MADE.django, 'bcrypt_sha256').replace('$04$', '$31$'), LIMIT],
    ['100,000 characters', `pbkdf2_sha256$1000$salt$${'A'.repeat(100_000)}`, INVALID],
  ],
  'aspnet-identity': [
    ['v3 iterations 2^31 - 1 (over the cap)', identityV3(1, 2 ** 31 - 1, 16, 13 + 16 + 32), LIMIT],
    ['v3 iterations 0', identityV3(1, 0, 16, 13 + 16 + 32), INVALID],
    ['v3 PRF 3', identityV3(3, 1000, 16, 13 + 16 + 32), INVALID],
    ['v3 salt length 2^32 - 1', identityV3(1, 1000, 2 ** 32 - 1, 13 + 16 + 32), INVALID],
    ['v3 salt length 8', identityV3(1, 1000, 8, 13 + 16 + 32), INVALID],
    [
      'v3 a 1,024-byte SHA-512 subkey at 100,000 iterations',
      identityV3(2, 100_000, 16, 13 + 16 + 1024),
      LIMIT,
    ],
    ['v3 no subkey', identityV3(1, 1000, 16, 13 + 16 + 8), INVALID],
    ['v3 padding missing', identityV3(1, 1000, 16, 13 + 16 + 32).replace(/=+$/, ''), INVALID],
    ['v3 trailing base64 bits set', identityV3(1, 1000, 16, 13 + 16 + 32).replace(/A==$/, 'B=='), INVALID],
    ['v2 one byte short', `A${'A'.repeat(62)}A===`.slice(0, 68), INVALID],
    ['v3 2,000 characters', `AQAAAA${'A'.repeat(1994)}`, INVALID],
  ],
  'spring-security': [
    ['{bcrypt} truncated', PUBLISHED.spring.delegating.vectors[0]?.slice(0, 40) as string, INVALID],
    ['{bcrypt} cost 31', (PUBLISHED.spring.delegating.vectors[0] as string).replace('$10$', '$31$'), LIMIT],
    ['{pbkdf2} odd hex', `{pbkdf2}${'a'.repeat(79)}`, INVALID],
    ['{pbkdf2} 30 bytes', `{pbkdf2}${'ab'.repeat(30)}`, INVALID],
    ['{scrypt} N=2^30', `{scrypt}$1e0801$${SALT16}$${VALUE32}`, LIMIT],
    ['{scrypt} r=255 p=255', `{scrypt}$e ffff$${SALT16}$${VALUE32}`.replace(' ', ''), LIMIT],
    ['{scrypt} p=0', `{scrypt}$e0800$${SALT16}$${VALUE32}`, INVALID],
    ['{scrypt} a 16-byte key', `{scrypt}$e0801$${SALT16}$${SALT16}`, INVALID],
    [
      '{argon2} m=4 GiB',
      `{argon2}$argon2id$v=19$m=4194304,t=1,p=1$${SALT16}$${VALUE32}`.replace(/=+\$/, '$').replace(/=+$/, ''),
      LIMIT,
    ],
    [
      '{argon2} no version',
      `{argon2}$argon2id$m=64,t=1,p=1$c29tZXNhbHQ$${VALUE32.replace(/=+$/, '')}`,
      INVALID,
    ],
    ['{noop} plain text', '{noop}password', INVALID],
  ],
  'firebase-scrypt': [
    ['a field missing', `$firebase-scrypt$${firebaseUser.salt}`, INVALID],
    ['salt not base64', `$firebase-scrypt$**$${firebaseUser.passwordHash}`, INVALID],
    ['passwordHash shorter than the signer key', `$firebase-scrypt$${firebaseUser.salt}$${SALT16}`, INVALID],
    ['an empty salt', `$firebase-scrypt$$${firebaseUser.passwordHash}`, INVALID],
    [
      'a 96-byte salt',
      `$firebase-scrypt$${b64(new Array(96).fill(1))}$${firebaseUser.passwordHash}`,
      INVALID,
    ],
    ['an extra field', `${firebaseStored(firebaseUser)}$x`, INVALID],
    ['salt padding missing', firebaseStored(firebaseUser).replace('==$', '$'), INVALID],
    [
      'salt trailing bits set',
      firebaseStored({ ...firebaseUser, salt: firebaseUser.salt.replace('lw==', 'lx==') }),
      INVALID,
    ],
    ['1,000 characters', `$firebase-scrypt$${'A'.repeat(1000)}`, INVALID],
    ['only the marker', '$firebase-scrypt$', INVALID],
  ],
  phpass: [
    ['cost character beyond 2^30', `${phpassP.slice(0, 3)}z${phpassP.slice(4)}`, INVALID],
    ['cost 2^30 (over the cap)', `${phpassP.slice(0, 3)}S${phpassP.slice(4)}`, LIMIT],
    ['cost 2^19 (over the cap)', `${phpassP.slice(0, 3)}H${phpassP.slice(4)}`, LIMIT],
    ['cost 2^6', `${phpassP.slice(0, 3)}4${phpassP.slice(4)}`, INVALID],
    ['one character short', phpassP.slice(0, -1), INVALID],
    ['hash trailing bits set', `${phpassP.slice(0, -1)}z`, INVALID],
    ['a "$" in the salt', `${phpassP.slice(0, 5)}$${phpassP.slice(6)}`, INVALID],
    ['$wp$ with a malformed bcrypt', wp.slice(0, 30), INVALID],
    ['$wp$ cost 31', wp.replace('$04$', '$31$'), LIMIT],
    ['200 characters', `$P$B${'a'.repeat(196)}`, INVALID],
  ],
  argon2i: [
    ['m=4 GiB', argon2i.replace('m=64', 'm=4194304'), LIMIT],
    ['t=1000', argon2i.replace('t=1', 't=1000'), LIMIT],
    ['p=0', argon2i.replace('p=1', 'p=0'), INVALID],
    ['m below 8·p', argon2i.replace('m=64', 'm=8').replace('p=1', 'p=2'), INVALID],
    ['version 16', argon2i.replace('v=19', 'v=16'), INVALID],
    ['no version', argon2i.replace('v=19$', ''), INVALID],
    ['an extra parameter', argon2i.replace('p=1', 'p=1,x=2'), INVALID],
    ['a 4-byte salt', argon2i.replace(/\$[A-Za-z0-9+/]+\$([A-Za-z0-9+/]+)$/, '$AAAAAA$$$1'), INVALID],
    ['hash not base64', `${argon2i.slice(0, -3)}*!*`, INVALID],
    ['hash missing', argon2i.replace(/\$[A-Za-z0-9+/]+$/, ''), INVALID],
  ],
  keycloak: [
    ['not JSON', '{"secretData": ', INVALID],
    [
      'an unknown field',
      keycloak({ hashedSaltedValue: 'x' }, { value: VALUE32, salt: SALT16 }, pbkdf2Data(1000)),
      INVALID,
    ],
    [
      'secretData not a string',
      JSON.stringify({ secretData: { value: VALUE32 }, credentialData: '{}' }),
      INVALID,
    ],
    ['hashIterations 10^9', keycloak({}, { value: VALUE32, salt: SALT16 }, pbkdf2Data(1_000_000_000)), LIMIT],
    ['hashIterations -1', keycloak({}, { value: VALUE32, salt: SALT16 }, pbkdf2Data(-1)), INVALID],
    ['algorithm md5', keycloak({}, { value: VALUE32, salt: SALT16 }, pbkdf2Data(1000, 'md5')), INVALID],
    ['a 4-byte salt', keycloak({}, { value: VALUE32, salt: b64([1, 2, 3, 4]) }, pbkdf2Data(1000)), INVALID],
    [
      'a 600-byte value',
      keycloak({}, { value: b64(new Array(600).fill(1)), salt: SALT16 }, pbkdf2Data(1000)),
      INVALID,
    ],
    ['argon2 memory 4 GiB', keycloak({}, { value: VALUE32, salt: SALT16 }, argon2Data('4194304')), LIMIT],
    ['type otp', keycloak({ type: 'otp' }, { value: VALUE32, salt: SALT16 }, pbkdf2Data(1000)), INVALID],
    ['5,000 characters', `{"a": "${'x'.repeat(5000)}"}`, INVALID],
  ],
}

test.each(Object.entries(HOSTILE))(
  '%s: malformed and hostile stored values are typed errors, before any work',
  async (_family, cases) => {
    expect(cases.length).toBeGreaterThanOrEqual(10)
    const rss = process.memoryUsage().rss
    for (const [label, encoded, code] of cases) {
      const started = performance.now()
      const outcome = await context
        .verify(encoded, 'correct horse battery staple')
        .catch((error: unknown) => error)
      // The refusal comes before any derivation, so a generous bound cannot flake; it catches a hang.
      expect(performance.now() - started, label).toBeLessThan(1000)
      expect(outcome, label).toMatchObject({ code })
      expect((outcome as Error).message, label).not.toContain('correct horse')
    }
    expect(process.memoryUsage().rss - rss).toBeLessThan(256 * 2 ** 20)
  },
)

test('a Firebase hash config over the scrypt caps, or malformed, is refused when the hasher is made', () => {
  const config = PUBLISHED.firebase.projects[0]?.hashConfig as Parameters<typeof firebaseScrypt>[0]
  for (const bad of [
    { ...config, memCost: 30 },
    { ...config, rounds: 0 },
    { ...config, signerKey: 'not base64!' },
    { ...config, saltSeparator: undefined },
    { ...config, extra: 1 },
  ]) {
    expect(() => firebaseScrypt(bad as typeof config)).toThrow(
      expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_OPTION' }),
    )
  }
})
