import session from 'express-session'
import createMemoryStore from 'memorystore'
import type { StoreBackend } from './backend.js'

const MemoryStore = createMemoryStore(session)

/** `memorystore`: an LRU cache with TTLs and a prune timer (which must be stopped, or the process stays up). */
export const memorystoreStore: StoreBackend = {
  name: 'memorystore',
  label: 'memorystore',
  async open() {
    const store = new MemoryStore({ checkPeriod: 60_000 })
    // `store` is the lru-cache instance memorystore keeps its sessions in (memorystore/lib/memorystore.js).
    const cache = (store as unknown as { store: { keys(): string[]; reset(): void } }).store
    return {
      store,
      storedIds: async () => cache.keys(),
      close: async () => {
        store.stopInterval()
        cache.reset()
      },
    }
  },
}
