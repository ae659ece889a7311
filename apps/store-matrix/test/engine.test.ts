import { createHasher } from '@authlab/hash-bcryptjs'
import { createIdGenerator } from '@authlab/id-random-bytes'
import { createUserDirectory } from '@authlab/servers'
import session, { type SessionData, type Store } from 'express-session'
import { describe, expect, test } from 'vitest'
import { cellText, LOGIN, runStore, type StoreBackend, type StoreReport, toMarkdown } from '../src/index.js'

type Callback = (error?: unknown, value?: SessionData | null) => void

/** An express MemoryStore with one deliberate fault, to prove each check can fail and says why. */
function faultyStore(
  name: string,
  fault: (store: Store, memory: Record<string, string>) => void,
): StoreBackend {
  return {
    name,
    label: name,
    async open() {
      const store = new session.MemoryStore()
      const memory = (store as unknown as { sessions: Record<string, string> }).sessions
      fault(store, memory)
      return { store, storedIds: async () => Object.keys(memory), close: async () => {} }
    },
  }
}

const truncating = faultyStore('truncates IDs to 16 characters', (store) => {
  const { get, set, destroy } = store
  store.get = (id: string, callback: Callback) => get.call(store, id.slice(0, 16), callback)
  store.set = (id: string, data: SessionData, callback?: Callback) =>
    set.call(store, id.slice(0, 16), data, callback)
  store.destroy = (id: string, callback?: Callback) => destroy.call(store, id.slice(0, 16), callback)
})
const undying = faultyStore('ignores destroy', (store) => {
  store.destroy = (_id: string, callback?: Callback) => callback?.()
})
let writes = 0
const lossy = faultyStore('loses every 50th write', (store) => {
  const { set } = store
  store.set = (id: string, data: SessionData, callback?: Callback) =>
    ++writes % 50 === 0 ? callback?.() : set.call(store, id, data, callback)
})

describe('the matrix engine reports broken stores', async () => {
  const generate = createIdGenerator()
  const options = {
    generators: [{ key: '@authlab/id-random-bytes', label: 'randomBytes', generate }],
    users: await createUserDirectory(createHasher({ cost: 4 }), { [LOGIN.username]: LOGIN.password }),
    secret: 'engine-test-secret-at-least-32-characters',
    frameworks: ['express', 'fastify'] as const,
    sessionsUnderLoad: 200,
    latencySamples: 0,
    lengths: [21],
  }
  const [truncated, immortal, leaky] = (await Promise.all(
    [truncating, undying, lossy].map((backend) => runStore(backend, options)),
  )) as [StoreReport, StoreReport, StoreReport]

  test.each([
    [truncated, 'ID in backend', 'stored truncated to 16 characters'],
    [immortal, 'regenerate', 'the pre-login ID is still in the backend'],
  ])('%#: every cell fails at the step that breaks', (report, step, reason) => {
    for (const cell of report.cells) expect(cell.outcome).toEqual({ ok: false, step, reason })
  })

  test('a store losing one write in 50 fails every cell', () => {
    for (const { outcome } of leaky.cells) {
      expect(outcome.ok).toBe(false)
      // Where the loss lands first varies; under load it shows up as an exact count.
      if (!outcome.ok && outcome.step.startsWith('200 concurrent'))
        expect(outcome.reason).toMatch(/\d+ of 200/)
    }
  })

  test('the Markdown matrix shows the failure reason in the cell', () => {
    const markdown = toMarkdown({
      format: 'authlab-store-matrix/1',
      generators: { '@authlab/id-random-bytes': 'randomBytes' },
      stores: [truncated],
      environment: { date: 'd', commit: 'c', runtime: 'r', cpu: 'x', cores: 2 },
    })
    expect(markdown).toContain(`| ${cellText(truncated.cells[0]?.outcome)} |`)
    expect(markdown).toContain('✗ ID in backend: stored truncated to 16 characters')
  })
})
