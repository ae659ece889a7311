import { availableParallelism } from 'node:os'
import { createHasher, maxThreads, type WorkerHasher, type WorkerHasherOptions } from '@authlab/hash-worker'
import { afterEach, expect, test } from 'vitest'

const misbehaving = new URL('./fixtures/misbehaving-strategy.cjs', import.meta.url).href

const pools: WorkerHasher[] = []
const pool = (options: WorkerHasherOptions = {}) => {
  const hasher = createHasher({ strategy: misbehaving, threads: 1, ...options })
  pools.push(hasher)
  return hasher
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((hasher) => hasher.close()))
})

/** The rejection of a promise (or `undefined` if it fulfilled), to assert on its code and message. */
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  )

test.each(['hang', 'spin'])(
  'a task that %ss is stopped with a TimeoutError and its thread replaced',
  async (mode) => {
    // The limit also covers a fresh thread's start-up (the call after the timeout makes one), which can
    // take hundreds of milliseconds on a loaded 2-core box: 2 s keeps the working calls clear of it.
    const hasher = pool({ taskTimeoutMs: 2_000 })
    const before = await hasher.hash('which thread')
    expect(await failure(hasher.hash(mode))).toMatchObject({
      code: 'ERR_AUTHLAB_TIMEOUT',
      message: /2000 ms/,
    })
    const after = await hasher.hash('which thread')
    expect(after).toMatch(/^thread \d+$/)
    expect(after).not.toBe(before)
  },
)

test.each([
  ['throw-null', /non-Error value: null/],
  ['throw-plain', /RangeError: a bug in the strategy/],
])('a strategy that does %s fails with a WorkerError', async (mode, message) => {
  const hasher = pool()
  expect(await failure(hasher.hash(mode))).toMatchObject({ code: 'ERR_AUTHLAB_WORKER', message })
})

test('a thread that crashes fails its task with a WorkerError and the next task gets a new thread', async () => {
  const hasher = pool()
  const crashed = await failure(hasher.hash('crash'))
  expect(crashed).toMatchObject({ code: 'ERR_AUTHLAB_WORKER', message: /exited with code 1/ })
  expect((crashed as Error).cause).toMatchObject({ message: 'uncaught in the worker' })
  expect(await hasher.hash('still works')).toMatch(/^thread \d+$/)
})

test('close() fails the running and the queued tasks with a ClosedError; a later call starts afresh', async () => {
  const hasher = pool()
  const running = failure(hasher.hash('hang'))
  const queued = failure(hasher.hash('slow'))
  await new Promise((resolve) => setTimeout(resolve, 100))
  await hasher.close()
  expect(await running).toMatchObject({ code: 'ERR_AUTHLAB_CLOSED' })
  expect(await queued).toMatchObject({ code: 'ERR_AUTHLAB_CLOSED' })
  expect(await hasher.hash('after close')).toMatch(/^thread \d+$/)
})

test('a full queue refuses further tasks with an OverloadError at once', async () => {
  const hasher = pool({ maxQueue: 2 })
  const outcomes = await Promise.all(
    ['slow', 'slow', 'slow', 'slow'].map((mode) => failure(hasher.hash(mode))),
  )
  // One runs, two wait, the fourth is refused.
  expect(outcomes.slice(0, 3)).toEqual([undefined, undefined, undefined])
  expect(outcomes[3]).toMatchObject({
    code: 'ERR_AUTHLAB_OVERLOAD',
    message: /1 worker threads are busy and 2 tasks/,
  })
})

test('a thread left holding more memory than maxWorkerMemoryMb is replaced after its task', async () => {
  const hasher = pool({ maxWorkerMemoryMb: 48 })
  const first = await hasher.hash('bloat')
  const second = await hasher.hash('which thread')
  expect(second).not.toBe(first)
  // Control: under the threshold, the thread is kept.
  expect(await hasher.hash('which thread')).toBe(second)
})

test('threads above twice the cores are refused, naming the cap', () => {
  const cap = maxThreads()
  expect(cap).toBe(2 * availableParallelism())
  expect(() => createHasher({ strategy: misbehaving, threads: cap + 1 })).toThrow(
    expect.objectContaining({
      code: 'ERR_AUTHLAB_INVALID_OPTION',
      message: expect.stringContaining(`to ${cap}`),
    }),
  )
  expect(() => createHasher({ strategy: misbehaving, threads: 64 * availableParallelism() })).toThrow(
    /threads/,
  )
})

test.each([
  [null, /options must be an object/],
  ['argon2id', /options must be an object/],
  [{ options: [] }, /strategy options/],
  [{ strategy: 42 }, /strategy must be a string/],
  [{ resolveFrom: {} }, /resolveFrom must be a string/],
  [{ threads: 1.5 }, /threads must be an integer/],
  [{ maxQueue: -1 }, /maxQueue must be an integer/],
  [{ maxQueue: Number.POSITIVE_INFINITY }, /maxQueue must be an integer/],
  [{ taskTimeoutMs: 0 }, /taskTimeoutMs must be an integer/],
  [{ taskTimeoutMs: 2 ** 31 }, /taskTimeoutMs must be an integer/],
  [{ maxWorkerMemoryMb: 0 }, /maxWorkerMemoryMb must be a positive number/],
  [{ maxWorkerMemoryMb: '256' }, /maxWorkerMemoryMb must be a positive number/],
  [{ maxWorkerMemoryMb: null }, /maxWorkerMemoryMb must be a positive number/],
  [{ threads: null }, /threads must be an integer/],
])('own option %j → InvalidOptionError', (options, message) => {
  expect(() => createHasher(options as WorkerHasherOptions)).toThrow(
    expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_OPTION', message: expect.stringMatching(message) }),
  )
})

test('a key that is neither an own option nor known to a strict strategy throws from createHasher', () => {
  expect(() => createHasher({ strategy: misbehaving, treads: 2 })).toThrow(
    expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_OPTION', message: 'unknown option treads' }),
  )
})

test("the strategy's own option errors surface from createHasher, before any thread starts", () => {
  expect(() => createHasher({ strategy: '@authlab/hash-bcryptjs', cost: 99 })).toThrow(
    expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_OPTION', message: expect.stringMatching(/cost/) }),
  )
})
