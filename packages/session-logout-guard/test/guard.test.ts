import { isAuthlabError } from '@authlab/core'
import session from 'express-session'
import { describe, expect, test } from 'vitest'
import {
  guardLogout,
  memoryTombstones,
  type SessionStoreLike,
  type StoredSession,
  storeTombstones,
} from '../src/index.js'

const MAX_AGE_MS = 60_000
const entry = (): StoredSession => ({ cookie: { expires: new Date(Date.now() + MAX_AGE_MS) }, user: 'alice' })

/** express-session's MemoryStore whose writes can be held back, to land after a concurrent destroy. */
class SlowWriteStore extends session.MemoryStore {
  private held: (() => void)[] = []
  holding = false
  reads = 0
  get heldWrites(): number {
    return this.held.length
  }
  override get(id: string, callback: (error: unknown, session?: session.SessionData | null) => void): void {
    this.reads++
    super.get(id, callback)
  }
  override set(id: string, data: session.SessionData, callback?: (error?: unknown) => void): void {
    if (this.holding) this.held.push(() => super.set(id, data, callback))
    else super.set(id, data, callback)
  }
  release(): void {
    for (const write of this.held.splice(0)) write()
  }
}

const promised = {
  get: (store: SessionStoreLike, id: string) =>
    new Promise<StoredSession | null | undefined>((resolve, reject) =>
      store.get(id, (error, value) => (error ? reject(error) : resolve(value))),
    ),
  set: (store: SessionStoreLike, id: string, value = entry()) =>
    new Promise<void>((resolve, reject) =>
      store.set(id, value, (error) => (error ? reject(error) : resolve())),
    ),
  destroy: (store: SessionStoreLike, id: string) =>
    new Promise<void>((resolve, reject) => store.destroy(id, (error) => (error ? reject(error) : resolve()))),
  touch: (store: SessionStoreLike, id: string) =>
    new Promise<void>((resolve, reject) =>
      store.touch?.(id, entry(), (error) => (error ? reject(error) : resolve())),
    ),
}

/**
 * Starts `write` with `inner` holding writes, and resolves once the write has reached `inner` and is
 * held there (the guard reaches the store only after its own tombstone lookup); writes after it pass.
 * The write's own promise comes back wrapped: returned bare, the async function would wait for it.
 */
async function heldWrite(
  inner: SlowWriteStore,
  write: () => Promise<void>,
): Promise<{ landed: Promise<void> }> {
  inner.holding = true
  const before = inner.heldWrites
  const landed = write()
  while (inner.heldWrites === before) await new Promise((resolve) => setImmediate(resolve))
  inner.holding = false
  return { landed }
}

function rawIds(store: session.MemoryStore): string[] {
  return Object.keys((store as unknown as { sessions: object }).sessions)
}

/** A request that loaded the session before the logout writes it back after: the race, step by step. */
async function writeLandingAfterDestroy(store: SessionStoreLike, inner: SlowWriteStore) {
  await promised.set(store, 'sid')
  const lateWrite = (await heldWrite(inner, () => promised.set(store, 'sid'))).landed
  await promised.destroy(store, 'sid')
  inner.release()
  await lateWrite
}

describe('guardLogout', () => {
  test('without the guard, a write that lands after the destroy brings the session back', async () => {
    const inner = new SlowWriteStore()
    await writeLandingAfterDestroy(inner, inner)
    expect(await promised.get(inner, 'sid')).toMatchObject({ user: 'alice' })
  })

  test('with it, the late write is undone and the session stays gone', async () => {
    const inner = new SlowWriteStore()
    const guarded = guardLogout(inner, { maxAgeMs: MAX_AGE_MS })
    await writeLandingAfterDestroy(guarded, inner)
    expect(await promised.get(guarded, 'sid')).toBeNull()
    expect(rawIds(inner)).toEqual([])
  })

  test('set and touch after a destroy write nothing and succeed; get finds nothing', async () => {
    const inner = new session.MemoryStore()
    const guarded = guardLogout(inner, { maxAgeMs: MAX_AGE_MS })
    await promised.set(guarded, 'sid')
    await promised.destroy(guarded, 'sid')
    await promised.set(guarded, 'sid')
    await promised.touch(guarded, 'sid')
    expect(rawIds(inner)).toEqual([])
    expect(await promised.get(guarded, 'sid')).toBeNull()
    // Other IDs are untouched.
    await promised.set(guarded, 'other')
    expect(await promised.get(guarded, 'other')).toMatchObject({ user: 'alice' })
  })

  test('a tombstone ends after maxAgeMs', async () => {
    const inner = new session.MemoryStore()
    const guarded = guardLogout(inner, { maxAgeMs: 1 })
    await promised.set(guarded, 'sid')
    await promised.destroy(guarded, 'sid')
    expect(rawIds(inner)).toEqual([])
    await new Promise((resolve) => setTimeout(resolve, 5))
    await promised.set(guarded, 'sid')
    expect(rawIds(inner)).toEqual(['sid'])
  })

  test('a destroy of a session the store does not hold, or isAuthenticated refuses, adds no tombstone', async () => {
    const added: string[] = []
    const inner = new session.MemoryStore()
    const registry = memoryTombstones()
    const recording = {
      add: (id: string, until: number) => {
        added.push(id)
        return registry.add(id, until)
      },
      has: registry.has,
    }
    const guarded = guardLogout(inner, {
      maxAgeMs: MAX_AGE_MS,
      tombstones: recording,
      isAuthenticated: (s) => 'user' in s,
    })
    await promised.destroy(guarded, 'never-stored')
    await promised.set(guarded, 'anonymous', { cookie: { expires: new Date(Date.now() + MAX_AGE_MS) } })
    await promised.destroy(guarded, 'anonymous')
    await promised.set(guarded, 'alice')
    await promised.destroy(guarded, 'alice')
    expect(added).toEqual(['alice'])
  })
})

describe('guardLogout: the store it wraps', () => {
  test('passes everything else through to the store, and regenerate goes through the guarded destroy', async () => {
    const inner = new session.MemoryStore()
    const guarded = guardLogout(inner, { maxAgeMs: MAX_AGE_MS })
    ;(guarded as unknown as { generate: unknown }).generate = () => {}
    expect(typeof (inner as unknown as { generate: unknown }).generate).toBe('function')
    expect(guarded.createSession).toBe(inner.createSession)
    await promised.set(guarded, 'sid')
    await new Promise<void>((resolve) =>
      guarded.regenerate({ sessionID: 'sid' } as unknown as Parameters<typeof guarded.regenerate>[0], () =>
        resolve(),
      ),
    )
    await promised.set(guarded, 'sid')
    expect(rawIds(inner)).toEqual([])
  })

  test('a store without touch keeps having none', () => {
    const { touch: _touch, ...methods } = {
      get: session.MemoryStore.prototype.get,
      set: session.MemoryStore.prototype.set,
      destroy: session.MemoryStore.prototype.destroy,
      touch: undefined,
    }
    expect(guardLogout(methods as SessionStoreLike, { maxAgeMs: MAX_AGE_MS }).touch).toBeUndefined()
  })

  test('a failing tombstone registry still destroys the session and reports the error', async () => {
    const inner = new session.MemoryStore()
    const failing = { add: () => Promise.reject(new Error('registry down')), has: async () => false }
    const guarded = guardLogout(inner, { maxAgeMs: MAX_AGE_MS, tombstones: failing })
    await promised.set(guarded, 'sid')
    await expect(promised.destroy(guarded, 'sid')).rejects.toThrow('registry down')
    expect(rawIds(inner)).toEqual([])
  })

  test('clear() with a failing registry still destroys every session and reports the error', async () => {
    const inner = new session.MemoryStore()
    const failing = { ...memoryTombstones(), addAll: () => Promise.reject(new Error('registry down')) }
    const guarded = guardLogout(inner, { maxAgeMs: MAX_AGE_MS, tombstones: failing })
    await promised.set(guarded, 'a')
    await promised.set(guarded, 'b')
    await expect(
      new Promise<void>((resolve, reject) => guarded.clear?.((error) => (error ? reject(error) : resolve()))),
    ).rejects.toThrow('registry down')
    expect(rawIds(inner)).toEqual([])
  })
})

describe('guardLogout: a session whose first save is on its way', () => {
  test('a read of a session whose first save is still on its way waits for it instead of finding nothing', async () => {
    const inner = new SlowWriteStore()
    const guarded = guardLogout(inner, { maxAgeMs: MAX_AGE_MS })
    const firstSave = (await heldWrite(inner, () => promised.set(guarded, 'sid'))).landed
    const read = promised.get(guarded, 'sid')
    // The read has looked in the store, and found nothing there yet, before the save lands.
    while (inner.reads === 0) await new Promise((resolve) => setImmediate(resolve))
    inner.release()
    await firstSave
    expect(await read).toMatchObject({ user: 'alice' })
    // With nothing on its way, a missing session is missing at once.
    expect(await promised.get(guarded, 'never-written')).toBeUndefined()
  })

  test('a destroy while the first save is on its way tombstones it: the save lands and is undone', async () => {
    const inner = new SlowWriteStore()
    const guarded = guardLogout(inner, { maxAgeMs: MAX_AGE_MS })
    const firstSave = (await heldWrite(inner, () => promised.set(guarded, 'sid'))).landed
    await promised.destroy(guarded, 'sid')
    inner.release()
    await firstSave
    expect(rawIds(inner)).toEqual([])
    expect(await promised.get(guarded, 'sid')).toBeNull()
  })
})

describe('guardLogout: bad options', () => {
  test.each([
    ['no store', () => guardLogout(null as unknown as SessionStoreLike, { maxAgeMs: 1000 })],
    ['maxAgeMs 0', () => guardLogout(new session.MemoryStore(), { maxAgeMs: 0 })],
    [
      'maxAgeMs "1000"',
      () => guardLogout(new session.MemoryStore(), { maxAgeMs: '1000' as unknown as number }),
    ],
    [
      'a registry without has',
      () => guardLogout(new session.MemoryStore(), { maxAgeMs: 1000, tombstones: {} as never }),
    ],
    ['maxEntries 0', () => memoryTombstones({ maxEntries: 0 })],
    [
      'isAuthenticated not a function',
      () => guardLogout(new session.MemoryStore(), { maxAgeMs: 1000, isAuthenticated: true as never }),
    ],
    ['a tombstone store without set', () => storeTombstones({ get() {} } as unknown as SessionStoreLike)],
  ])('%s is refused with a typed error', (_name, create) => {
    expect(create).toThrow(expect.objectContaining({ code: 'ERR_AUTHLAB_INVALID_OPTION' }))
    try {
      create()
    } catch (error) {
      expect(isAuthlabError(error)).toBe(true)
    }
  })
})

describe('memoryTombstones', () => {
  test('keeps at most maxEntries, forgetting the oldest first', async () => {
    const registry = memoryTombstones({ maxEntries: 3 })
    const until = Date.now() + MAX_AGE_MS
    for (const id of ['a', 'b', 'c', 'd', 'e']) await registry.add(id, until)
    const kept = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((id) => registry.has(id)))
    expect(kept).toEqual([false, false, true, true, true])
  })

  test('forgets a tombstone once it has expired', async () => {
    const registry = memoryTombstones()
    await registry.add('gone', Date.now() - 1)
    await registry.add('kept', Date.now() + MAX_AGE_MS)
    expect(await registry.has('gone')).toBe(false)
    expect(await registry.has('kept')).toBe(true)
  })
})

describe('storeTombstones', () => {
  test('two guards on one shared store see each other’s logouts', async () => {
    const shared = new session.MemoryStore()
    const options = { maxAgeMs: MAX_AGE_MS, tombstones: storeTombstones(shared) }
    const first = guardLogout(shared, options)
    const second = guardLogout(shared, { ...options, tombstones: storeTombstones(shared) })
    await promised.set(first, 'sid')
    await promised.destroy(first, 'sid')
    await promised.set(second, 'sid')
    expect(await promised.get(second, 'sid')).toBeNull()
    // The only entry left is the tombstone, which expires with its cookie.
    expect(rawIds(shared)).toEqual(['logout-tombstone:sid'])
  })

  test('separate memory registries do not: the reason storeTombstones exists', async () => {
    const shared = new session.MemoryStore()
    const first = guardLogout(shared, { maxAgeMs: MAX_AGE_MS })
    const second = guardLogout(shared, { maxAgeMs: MAX_AGE_MS })
    await promised.set(first, 'sid')
    await promised.destroy(first, 'sid')
    await promised.set(second, 'sid')
    expect(await promised.get(second, 'sid')).toMatchObject({ user: 'alice' })
  })
})

describe('all and clear', () => {
  const listed = (store: session.MemoryStore) =>
    new Promise<Record<string, StoredSession>>((resolve, reject) =>
      store.all((error, sessions) =>
        error ? reject(error) : resolve((sessions ?? {}) as Record<string, StoredSession>),
      ),
    )
  const counted = (store: session.MemoryStore) =>
    new Promise<number>((resolve, reject) =>
      store.length((error, length) => (error ? reject(error) : resolve(length ?? -1))),
    )
  const cleared = (store: session.MemoryStore) =>
    new Promise<void>((resolve, reject) => store.clear((error) => (error ? reject(error) : resolve())))

  test('all() and length() list sessions only, never a tombstone kept in the same store', async () => {
    const shared = new session.MemoryStore()
    const guarded = guardLogout(shared, { maxAgeMs: MAX_AGE_MS, tombstones: storeTombstones(shared) })
    await promised.set(guarded, 'alive')
    await promised.set(guarded, 'gone')
    await promised.destroy(guarded, 'gone')
    expect(Object.keys(await listed(guarded))).toEqual(['alive'])
    expect(await counted(guarded)).toBe(1)
  })

  test('clear() keeps logged-out sessions out: a late write after it brings none back', async () => {
    const shared = new SlowWriteStore()
    const guarded = guardLogout(shared, { maxAgeMs: MAX_AGE_MS, tombstones: storeTombstones(shared) })
    await promised.set(guarded, 'sid')
    await promised.destroy(guarded, 'sid')
    await cleared(guarded)
    // A request that loaded the session before the logout writes it back now.
    await promised.set(guarded, 'sid')
    expect(await promised.get(guarded, 'sid')).toBeNull()
    expect(rawIds(shared)).not.toContain('sid')
  })

  test('clear() logs every session out: one in flight while it runs does not come back', async () => {
    const inner = new SlowWriteStore()
    const guarded = guardLogout(inner, { maxAgeMs: MAX_AGE_MS })
    await promised.set(guarded, 'a')
    await promised.set(guarded, 'b')
    const lateWrite = (await heldWrite(inner, () => promised.set(guarded, 'a'))).landed
    await cleared(guarded)
    inner.release()
    await lateWrite
    expect(await promised.get(guarded, 'a')).toBeNull()
    expect(await promised.get(guarded, 'b')).toBeNull()
    expect(rawIds(inner)).toEqual([])
  })

  test('clear() over more sessions than maxEntries keeps every one of them out', async () => {
    const inner = new session.MemoryStore()
    const guarded = guardLogout(inner, {
      maxAgeMs: MAX_AGE_MS,
      tombstones: memoryTombstones({ maxEntries: 3 }),
    })
    const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g']
    for (const id of ids) await promised.set(guarded, id)
    await cleared(guarded)
    // Requests that loaded these sessions before clear() write them back now.
    for (const id of ids) await promised.set(guarded, id)
    expect(rawIds(inner)).toEqual([])
    // Logouts after the clear are still bounded by maxEntries, oldest forgotten first.
    for (const id of ['h', 'i', 'j', 'k']) {
      await promised.set(guarded, id)
      await promised.destroy(guarded, id)
    }
    await promised.set(guarded, 'h')
    expect(rawIds(inner)).toEqual(['h'])
  })

  test('clear() on a store that cannot list its sessions is refused with a typed error', async () => {
    const { all: _all, ...methods } = {
      get: session.MemoryStore.prototype.get,
      set: session.MemoryStore.prototype.set,
      destroy: session.MemoryStore.prototype.destroy,
      clear: session.MemoryStore.prototype.clear,
      all: undefined,
    }
    const inner = Object.assign(Object.create(null), methods, { sessions: Object.create(null) })
    const guarded = guardLogout(inner as session.MemoryStore, { maxAgeMs: MAX_AGE_MS })
    await expect(cleared(guarded)).rejects.toMatchObject({ code: 'ERR_AUTHLAB_INVALID_OPTION' })
  })
})
