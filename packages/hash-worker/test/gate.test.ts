import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { PasswordHasher } from '@authlab/core'
import { limitConcurrency } from '@authlab/hash-worker'
import { expect, test } from 'vitest'

/** A hasher whose every call waits until the test settles it, recording how many ran at once. */
function controlledHasher() {
  const pending: { password: string; settle: (ok: boolean) => void }[] = []
  let running = 0
  let peak = 0
  const call = (password: string) =>
    new Promise<string>((resolve, reject) => {
      running++
      peak = Math.max(peak, running)
      pending.push({
        password,
        settle: (ok) => {
          running--
          ok ? resolve(`hash of ${password}`) : reject(new Error(`failed ${password}`))
        },
      })
    })
  const hasher = {
    info: {
      name: 'controlled',
      displayName: 'controlled',
      algorithm: 'test',
      runsOn: 'threadpool',
      params: {},
    },
    hash: (password: string) => call(password),
    verify: async (_: string, password: string) => (await call(password)) === 'x',
    needsRehash: () => true,
  } as unknown as PasswordHasher
  return { hasher, pending, peak: () => peak }
}

const settled = (promise: Promise<unknown>) =>
  promise.then(
    (value) => ({ value }),
    (error: { code?: string; message: string }) => ({ code: error.code, message: error.message }),
  )
const turn = () => new Promise((resolve) => setImmediate(resolve))

test('at most `concurrent` calls run; the next start in arrival order; a full queue refuses with OverloadError', async () => {
  const { hasher, pending, peak } = controlledHasher()
  const gated = limitConcurrency(hasher, { concurrent: 2, maxQueue: 2 })
  const calls = ['a', 'b', 'c', 'd', 'e'].map((password) => settled(gated.hash(password)))
  await turn()
  expect(pending.map((p) => p.password)).toEqual(['a', 'b'])
  expect(await calls[4]).toMatchObject({
    code: 'ERR_AUTHLAB_OVERLOAD',
    message: /2 hashes are running and 2 are queued/,
  })
  // A failure frees its slot like a success does; a newcomer waits behind the queue.
  pending[1]?.settle(false)
  await turn()
  const late = settled(gated.verify('stored', 'f'))
  pending[0]?.settle(true)
  await turn()
  expect(pending.slice(2).map((p) => p.password)).toEqual(['c', 'd'])
  for (const p of pending.slice(2)) p.settle(true)
  await turn()
  pending[4]?.settle(true)
  expect(await Promise.all([...calls.slice(0, 4), late])).toEqual([
    { value: 'hash of a' },
    { message: 'failed b' },
    { value: 'hash of c' },
    { value: 'hash of d' },
    { value: false },
  ])
  expect(peak()).toBe(2)
  expect(gated.needsRehash('x')).toBe(true)
  expect(gated.info).toBe(hasher.info)
})

test.each([
  [{ concurrent: 0 }, /concurrent must be an integer of at least 1/],
  [{ concurrent: 1.5 }, /concurrent/],
  [{ concurrent: 2, maxQueue: -1 }, /maxQueue/],
  [{ concurrent: 2, queue: 5 }, /unknown concurrency limit option queue/],
  [null, /limit must be an object/],
])('limit %j → InvalidOptionError', (limit, message) => {
  expect(() => limitConcurrency(controlledHasher().hasher, limit as never)).toThrow(
    expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_OPTION', message: expect.stringMatching(message) }),
  )
})

// The reason for the gate: native hashers share libuv's threadpool with fs. Two pool threads, four
// expensive verifies (node:crypto scrypt, 64 MiB and p=2 each) and then one file read, in a fresh
// process so UV_THREADPOOL_SIZE applies. Reported: how many verifies finished before the read did.
const built = fileURLToPath(new URL('../dist/cjs/index.js', import.meta.url))
/** `concurrent` 0 runs the verifies ungated. */
const verifiesBeforeRead = (concurrent: number) => {
  const script = `
    const { scrypt } = require('node:crypto')
    const { readFile } = require('node:fs')
    const { limitConcurrency } = require(${JSON.stringify(built)})
    const scryptHasher = {
      info: {}, hash: async () => '', needsRehash: () => false,
      verify: () => new Promise((resolve, reject) =>
        scrypt('password', 'salt', 32, { N: 2 ** 16, r: 8, p: 2, maxmem: 2 ** 27 }, (error) => error ? reject(error) : resolve(false))),
    }
    const hasher = ${concurrent} > 0 ? limitConcurrency(scryptHasher, { concurrent: ${concurrent} }) : scryptHasher
    let finished = 0
    for (let i = 0; i < 4; i++) hasher.verify('stored', 'guess').then(() => finished++)
    readFile(${JSON.stringify(built)}, () => console.log(finished))
  `
  return Number(
    execFileSync(process.execPath, ['-e', script], {
      encoding: 'utf8',
      env: { ...process.env, UV_THREADPOOL_SIZE: '2' },
    }),
  )
}

test('with concurrent: 1, a file read is not queued behind expensive verifies on libuv threads', () => {
  expect(verifiesBeforeRead(1)).toBe(0)
  // Control: without the gate both pool threads are taken and the read waits for verifies to finish.
  expect(verifiesBeforeRead(0)).toBeGreaterThanOrEqual(2)
})
