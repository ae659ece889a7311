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
      // The caller records a nonce only while its timestamp lies within ±window of `now`, and accepts a
      // request only while that still holds; so no copy of this one can pass after now + 2 windows.
      seen.set(nonce, now + 2 * windowMs)
      return 'fresh'
    },
    /** Milliseconds until the oldest entry expires and a full cache takes a nonce again. */
    msUntilRoom(now = Date.now()): number {
      for (const expires of seen.values()) return Math.max(0, expires - now)
      return 0
    },
    get size() {
      return seen.size
    },
  }
}
