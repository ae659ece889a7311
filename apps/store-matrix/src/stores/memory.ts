import session from 'express-session'
import type { StoreBackend } from './backend.js'

/** express-session's own MemoryStore: a plain object of JSON strings keyed by session ID. */
export const memoryStore: StoreBackend = {
  name: 'memory',
  label: 'express-session MemoryStore',
  async open() {
    const store = new session.MemoryStore()
    // `sessions` is the store's backing object (express-session session/memory.js).
    const backing = store as unknown as { sessions: Record<string, string> }
    return {
      store,
      storedIds: async () => Object.keys(backing.sessions),
      close: async () => {
        backing.sessions = Object.create(null)
      },
    }
  },
}
