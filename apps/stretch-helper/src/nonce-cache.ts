/**
 * Nonces seen inside the replay window. Entries expire with the window, so the cache holds at most
 * (request rate × window) entries; past `maxEntries` it refuses new nonces rather than forget live
 * ones, since forgetting one would let its request be replayed.
 */
export function createNonceCache(windowMs: number, maxEntries: number) {
  // Insertion order is arrival order, so expired entries gather at the front.
  const seen = new Map<string, number>()

  const sweep = (now: number) => {
    for (const [nonce, expires] of seen) {
      if (expires > now) break
      seen.delete(nonce)
    }
  }

  return {
    /** 'fresh' records the nonce; 'replay' means it was used; 'full' means the cache cannot take more. */
    record(nonce: string, now = Date.now()): 'fresh' | 'replay' | 'full' {
      sweep(now)
      if (seen.has(nonce)) return 'replay'
      if (seen.size >= maxEntries) return 'full'
      // A request is acceptable while its timestamp is within ±window of now, so 2 windows covers it.
      seen.set(nonce, now + 2 * windowMs)
      return 'fresh'
    },
    get size() {
      return seen.size
    },
  }
}
