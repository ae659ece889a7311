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
