import { expect, test } from 'vitest'
import {
  argon2i,
  aspnetIdentity,
  createPasswordContext,
  django,
  type FirebaseHashConfig,
  type ForeignHasher,
  firebaseScrypt,
  identifyHash,
  keycloak,
  phpass,
  springSecurity,
} from '../../src/index.js'
import { spy } from '../spy.js'
import { cheapBcrypt, current, MADE, PUBLISHED } from './fixtures.js'

const cheap = (vectors: readonly { maker: string; encoded: string }[], maker: string) =>
  vectors.find((v) => v.maker.startsWith(maker))?.encoded as string

// Each stack's hasher, writing (as `writeLike` says) at the cheap parameters of one of its vectors.
const HASHERS: ReadonlyArray<readonly [string, () => ForeignHasher]> = [
  ['django', () => django({ writeLike: cheap(MADE.django, 'pbkdf2_sha256') })],
  ['argon2i', () => argon2i({ writeLike: cheap(MADE.php, 'password_hash PASSWORD_ARGON2I m=') })],
  ['aspnet-identity', () => aspnetIdentity({ writeLike: PUBLISHED.aspnet.vectors[3]?.encoded as string })],
  ['spring-security', () => springSecurity({ bcrypt: cheapBcrypt() })],
  ['phpass', () => phpass({ writeLike: cheap(MADE.phpass, '$P$') })],
  ['keycloak', () => keycloak({ writeLike: cheap(MADE.keycloak, 'pbkdf2-sha512') })],
  ['firebase-scrypt', () => firebaseScrypt(PUBLISHED.firebase.projects[0]?.hashConfig as FirebaseHashConfig)],
]

const settled = () => new Promise((resolve) => setTimeout(resolve, 100))

test.each(HASHERS)(
  'missingUserFormat %s: a missing user costs one verify of a hash that stack wrote',
  async (family, make) => {
    const legacy = spy(make())
    const context = createPasswordContext({ current: current(), legacy: [legacy.hasher] })
    await settled()
    legacy.reset()
    expect(await context.verify(null, 'correct horse battery staple')).toEqual({ valid: false })
    expect(await context.verify('', '')).toEqual({ valid: false })
    expect(legacy.calls.verify).toHaveLength(2)
    for (const dummy of legacy.calls.verify) {
      expect(identifyHash(dummy)).toBe(family)
      // Written at the hasher's own setting, which its stored users share.
      expect(legacy.hasher.needsRehash(dummy)).toBe(false)
    }
  },
)

test("each stack's hash() writes its stack's default setting unless told otherwise", () => {
  expect(django().info.params).toEqual({ variant: 'pbkdf2_sha256', iterations: 1_000_000 })
  expect(argon2i().info.params).toEqual({ variant: 'argon2i', m: 65536, t: 4, p: 1 })
  expect(aspnetIdentity().info.params).toEqual({ variant: 'v3 HMACSHA512', iterations: 100_000 })
  expect(springSecurity().info.params).toEqual({
    variant: '{pbkdf2@SpringSecurity_v5_8}',
    iterations: 310_000,
  })
  expect(springSecurity({ bcrypt: cheapBcrypt() }).info.params).toEqual({ variant: '{bcrypt}', cost: 4 })
  expect(phpass().info.params).toEqual({ variant: '$P$', rounds: 13 })
  expect(keycloak().info.params).toEqual({ variant: 'pbkdf2-sha512', iterations: 210_000 })
})

test('writeLike must be a stored hash of the format, and every option is checked', () => {
  const bad: Array<() => unknown> = [
    () => django({ writeLike: '$2b$04$notdjango' }),
    () => django({ bcrypt: {} as never }),
    () => django({ bcrypt: current() as never }),
    () => django({ argon2: 'node' as never }),
    () => django({ iterations: 1000 } as never),
    () => springSecurity({ pbkdf2Secret: 42 as never }),
    () => keycloak({ writeLike: '{}' }),
    () => phpass({ writeLike: '$P$' }),
    () => aspnetIdentity({ writeLike: 'AQAA' }),
    () => argon2i({ writeLike: '$argon2id$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA' }),
  ]
  for (const make of bad)
    expect(make).toThrow(expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_OPTION' }))
})
