import { expect, test } from 'vitest'
import { createHasher } from '../src/index.js'

test('bcrypt mode writes $2b$ although hash-wasm itself writes $2a$', async () => {
  expect(await createHasher({ algorithm: 'bcrypt', cost: 4 }).hash('x')).toMatch(/^\$2b\$04\$/)
})

test('defaults: argon2id with the OWASP parameters; scrypt and bcrypt with theirs', () => {
  expect(createHasher().info).toMatchObject({ algorithm: 'argon2id', params: { m: 19456, t: 2, p: 1 } })
  expect(createHasher({ algorithm: 'scrypt' }).info).toMatchObject({
    algorithm: 'scrypt',
    params: { ln: 17, r: 8, p: 1 },
  })
  expect(createHasher({ algorithm: 'bcrypt' }).info).toMatchObject({
    algorithm: 'bcrypt',
    params: { cost: 10 },
  })
})

test('an unknown algorithm is an InvalidOptionError', () => {
  expect(() => createHasher({ algorithm: 'md5' } as never)).toThrow(
    expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_OPTION' }),
  )
})
