import { execFileSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { InvalidHashError, PasswordPolicyError } from '@authlab/core'
import { createHasher as jsBcrypt } from '@authlab/hash-bcryptjs'
import { createHasher } from '@authlab/hash-worker'
import { expect, test } from 'vitest'

test('typed errors from a worker arrive as the same AuthlabError classes', async () => {
  const hasher = createHasher({ strategy: '@authlab/hash-bcryptjs', options: { cost: 4 }, threads: 1 })
  try {
    await expect(hasher.hash('')).rejects.toBeInstanceOf(PasswordPolicyError)
    await expect(hasher.verify('$2b$04$short', 'x')).rejects.toBeInstanceOf(InvalidHashError)
  } finally {
    await hasher.close()
  }
})

test('close() ends the threads; a later call starts a fresh pool with the same hashes', async () => {
  const hasher = createHasher({ strategy: '@authlab/hash-bcryptjs', options: { cost: 4 }, threads: 1 })
  const encoded = await hasher.hash('before close')
  await hasher.close()
  expect(await hasher.verify(encoded, 'before close')).toBe(true)
  expect(await jsBcrypt({ cost: 4 }).verify(encoded, 'before close')).toBe(true)
  await hasher.close()
})

test("top-level keys are strategy options, like every hasher's cost keys", async () => {
  const hasher = createHasher({ algorithm: 'bcrypt', cost: 4, threads: 1 })
  try {
    expect(hasher.info).toMatchObject({ algorithm: 'bcrypt', params: { cost: 4 }, runsOn: 'worker' })
    expect(await jsBcrypt({ cost: 4 }).verify(await hasher.hash('direct'), 'direct')).toBe(true)
    expect(
      createHasher({ options: { cost: 5 }, cost: 6, strategy: '@authlab/hash-bcryptjs' }).info.params,
    ).toEqual({
      cost: 6,
    })
  } finally {
    await hasher.close()
  }
})

// The tests run the built package (dist/): the worker script is the compiled worker.js beside it.
const built = {
  esm: new URL('../dist/esm/index.js', import.meta.url).href,
  cjs: new URL('../dist/cjs/index.js', import.meta.url).pathname,
}

test.each([
  ['ESM', `import(${JSON.stringify(built.esm)})`],
  ['CommonJS', `Promise.resolve(require(${JSON.stringify(built.cjs)}))`],
])(
  '%s: works from any working directory, and an unclosed pool does not keep the process alive',
  (_, load) => {
    // A child process in an unrelated directory hashes with the default hasher, never calls close(),
    // and must exit by itself.
    const script = `${load}.then(async ({ hasher }) => console.log(await hasher.hash('x')))`
    const output = execFileSync(process.execPath, ['-e', script], {
      cwd: tmpdir(),
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(output).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
  },
)

test.each([
  [{ threads: 0 }, /threads/],
  [{ strategy: '@authlab/no-such-strategy' }, /cannot resolve/],
  [{ strategy: 'node:path' }, /does not export createHasher/],
])('bad options %j → InvalidOptionError', (options, message) => {
  let thrown: unknown
  try {
    createHasher(options)
  } catch (error) {
    thrown = error
  }
  expect(thrown).toMatchObject({
    code: 'ERR_AUTHLAB_INVALID_OPTION',
    message: expect.stringMatching(message),
  })
})
