import { createHasher as argon2 } from '@authlab/hash-argon2'
import { createHasher as bcrypt } from '@authlab/hash-bcrypt'
import { expect, test } from 'vitest'
import { createPasswordContext, identifyHash } from '../src/index.js'

const context = createPasswordContext({ current: argon2({ m: 1024, t: 1, p: 1 }), legacy: [bcrypt()] })

// Each body holds the marker "SECRETPART": it must never appear in a message.
const LOOK_ALIKES: ReadonlyArray<readonly [string, RegExp]> = [
  ['$1$SECRETPART$abcdefghijklmnopqrstuv', /MD5-crypt/],
  ['$apr1$SECRETPART$abcdefghijklmnopqrstuv', /Apache MD5/],
  ['$5$rounds=5000$SECRETPART$abc', /SHA-256-crypt/],
  ['$6$SECRETPART$abc', /SHA-512-crypt/],
  ['$y$j9T$SECRETPART$abc', /yescrypt/],
  ['$2x$10$SECRETPARTSECRETPARTSECRETPARTSECRETPARTSECRETPARTSEC', /obsolete/],
  // PHP's argon2i and Django's fields are families now, read by argon2i() and django() when configured.
  ['$argon2i$v=19$m=65536,t=2,p=1$SECRETPART$abc', /no argon2i hasher is configured/],
  ['$argon2d$v=19$m=65536,t=2,p=1$SECRETPART$abc', /argon2i or argon2d/],
  ['$pbkdf2-sha512$25000$SECRETPART$abc', /PBKDF2 with a digest other than SHA-256/],
  ['pbkdf2_sha256$870000$SECRETPART$abc=', /no django hasher is configured/],
  ['md5$SECRETPART$abc', /Django's deprecated fast-digest/],
  ['{SSHA}SECRETPARTSECRETPART', /LDAP/],
  ['5f4dcc3b5aa765d61d8327deb882cf99', /bare hex digest/],
  ['$sha1$SECRETPART$abc', /PHC string of another algorithm/],
  ['SECRETPART plain text', /not in any recognised/],
]

test("'' is no hash: identify refuses it, and verify treats it as a missing user (see migration.test.ts)", () => {
  expect(() => identifyHash('')).toThrow(expect.objectContaining({ name: 'UnsupportedHashError' }))
})

test.each(LOOK_ALIKES)('%s is refused naming its family, never its content', async (encoded, family) => {
  const error = await context.verify(encoded, 'hunter2').catch((e: unknown) => e)
  expect(error).toMatchObject({ name: 'UnsupportedHashError', code: 'ERR_AUTHLAB_INVALID_HASH' })
  expect((error as Error).message).toMatch(family)
  expect((error as Error).message).not.toContain('SECRETPART')
  expect((error as { family: string }).family).toMatch(/\w/)
})

test('a routable family without a configured hasher names the family and what to do', async () => {
  const onlyArgon = createPasswordContext({ current: argon2({ m: 1024, t: 1, p: 1 }) })
  const error = await onlyArgon
    .verify('$scrypt$ln=4,r=8,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA', 'x')
    .catch((e) => e)
  expect(error).toMatchObject({ code: 'ERR_AUTHLAB_INVALID_HASH', family: 'scrypt' })
  expect(error.message).toMatch(/no scrypt hasher is configured/)
})

test('every format authlab writes or reads is routed', () => {
  expect(identifyHash('$2a$10$')).toBe('bcrypt')
  expect(identifyHash('$2b$10$')).toBe('bcrypt')
  expect(identifyHash('$2y$10$')).toBe('bcrypt')
  expect(identifyHash('$argon2id$v=19$')).toBe('argon2id')
  expect(identifyHash('$scrypt$ln=17')).toBe('scrypt')
  expect(identifyHash('$pbkdf2-sha256$i=600000$')).toBe('pbkdf2-sha256')
  expect(identifyHash('$pbkdf2-sha256$29000$')).toBe('pbkdf2-sha256')
})

test('a stored value that is not a string is a typed error', async () => {
  await expect(context.verify(42 as unknown as string, 'x')).rejects.toMatchObject({
    code: 'ERR_AUTHLAB_INVALID_HASH',
  })
})

test('options are checked: unknown keys, a missing current hasher, two legacy hashers for one family', () => {
  const current = argon2({ m: 1024, t: 1, p: 1 })
  const bad = [
    { current, legacy: [], curent: current },
    { legacy: [current] },
    { current: {} },
    { current, legacy: [bcrypt(), bcrypt({ cost: 11 })] },
    { current, legacy: 'bcrypt' },
    null,
  ]
  for (const options of bad) {
    expect(() => createPasswordContext(options as never)).toThrow(
      expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_OPTION' }),
    )
  }
})
