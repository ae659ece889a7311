import { afterEach, expect, test, vi } from 'vitest'
import { defineBcryptHasher, defineKdfHasher, isWorkersRuntime, PBKDF2_SHA256 } from '../src/index.js'

afterEach(() => {
  vi.unstubAllGlobals()
})

const describe = (runsOn: 'threadpool' | 'worker' | 'main-thread') => ({
  name: 'x',
  displayName: 'x',
  wraps: 'x',
  runsOn,
})
const kdf = async () => new Uint8Array(32)

test('a threadpool hasher reports main-thread in a Workers isolate, where nothing runs off its thread', () => {
  const threadpool = () =>
    defineKdfHasher({ algorithm: PBKDF2_SHA256, describe: describe('threadpool'), kdf, options: undefined })
  const bcrypt = () =>
    defineBcryptHasher({ describe: describe('threadpool'), engine: async () => '', options: { cost: 4 } })
  expect(isWorkersRuntime()).toBe(false)
  expect(threadpool().info.runsOn).toBe('threadpool')
  expect(bcrypt().info.runsOn).toBe('threadpool')
  // workerd's and Cloudflare's navigator.userAgent.
  vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' })
  expect(isWorkersRuntime()).toBe(true)
  expect(threadpool().info.runsOn).toBe('main-thread')
  expect(bcrypt().info.runsOn).toBe('main-thread')
  // Only the threadpool has no counterpart there: a worker or main-thread claim is left as declared.
  expect(
    defineKdfHasher({ algorithm: PBKDF2_SHA256, describe: describe('worker'), kdf, options: undefined }).info
      .runsOn,
  ).toBe('worker')
})
