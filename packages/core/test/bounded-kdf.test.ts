import { setImmediate as nextTurn } from 'node:timers/promises'
import { expect, test } from 'vitest'
import { boundKdf, hostCollectGarbage } from '../src/bounded-kdf.js'
import type { RawKdf } from '../src/index.js'

const params = Object.freeze({})
const bytes = new Uint8Array(1)

/**
 * A stand-in for a pure-JS scrypt: allocates its working memory per call, works across a few turns of
 * the event loop, and drops the memory when it returns. Each buffer is watched through a WeakRef, whose
 * target the engine keeps until a full collection clears it: `uncollected()` counts the buffers of
 * derivations that ended and are still in memory.
 */
function allocatingKdf() {
  const ended: WeakRef<Uint8Array>[] = []
  let worstAtStart = 0
  const kdf: RawKdf = async () => {
    worstAtStart = Math.max(worstAtStart, ended.filter((ref) => ref.deref() !== undefined).length)
    let scratch: Uint8Array | undefined = new Uint8Array(256 * 1024).fill(1)
    for (let turn = 0; turn < 3; turn++) await nextTurn()
    ended.push(new WeakRef(scratch))
    scratch = undefined
    return new Uint8Array(32)
  }
  return { kdf, worstAtStart: () => worstAtStart }
}

test('a slot frees only after a collection: callers that keep retrying never hold more than the bound', async () => {
  const max = 4
  const { kdf, worstAtStart } = allocatingKdf()
  const bounded = boundKdf(kdf, max, 'test')
  let completed = 0
  const caller = async () => {
    while (completed < 10 * max) {
      try {
        await bounded(bytes, bytes, params, 32)
        completed++
      } catch (error) {
        expect(error).toMatchObject({ code: 'ERR_AUTHLAB_OVERLOAD' })
        await nextTurn()
      }
    }
  }
  await Promise.all(Array.from({ length: 2 * max }, caller))
  // When a derivation starts, the other max − 1 slots hold at most max − 1 buffers, running or not yet
  // collected. Freeing a slot when its derivation returned left dozens uncollected here.
  expect(worstAtStart()).toBeLessThanOrEqual(max - 1)
})

test('every slot running: refused at once, no collection; a slot waiting for one: collected, then taken', async () => {
  let collections = 0
  let finish: () => void = () => {}
  const kdf: RawKdf = () =>
    new Promise((resolve) => {
      finish = () => resolve(new Uint8Array(32))
    })
  const bounded = boundKdf(kdf, 1, 'test', async () => {
    collections++
  })
  const first = bounded(bytes, bytes, params, 32)
  await expect(bounded(bytes, bytes, params, 32)).rejects.toMatchObject({ code: 'ERR_AUTHLAB_OVERLOAD' })
  expect(collections).toBe(0)
  finish()
  await first
  const second = bounded(bytes, bytes, params, 32)
  await nextTurn()
  expect(collections).toBe(1)
  finish()
  await second
})

test('a runtime whose collection throws (Deno node:vm) falls back to freeing slots when derivations end', async () => {
  let attempts = 0
  const bounded = boundKdf(
    async () => new Uint8Array(32),
    1,
    'test',
    async () => {
      attempts++
      throw new Error('Not implemented: measureMemory')
    },
  )
  for (let call = 0; call < 4; call++) expect(await bounded(bytes, bytes, params, 32)).toHaveLength(32)
  expect(attempts).toBe(1)
})

test('hostCollectGarbage: an exposed gc(), Bun.gc(true), node:vm measureMemory eager, else none', async () => {
  const calls: unknown[] = []
  await hostCollectGarbage({ gc: () => void calls.push('gc') })?.()
  await hostCollectGarbage({ Bun: { gc: (force) => void calls.push(['Bun.gc', force]) } })?.()
  const vm = { measureMemory: async (options: unknown) => void calls.push(['measureMemory', options]) }
  await hostCollectGarbage({ process: { getBuiltinModule: (id) => (id === 'node:vm' ? vm : undefined) } })?.()
  expect(calls).toEqual(['gc', ['Bun.gc', true], ['measureMemory', { execution: 'eager' }]])
  expect(hostCollectGarbage({})).toBeUndefined()
  expect(hostCollectGarbage({ process: {} })).toBeUndefined()
})
