/**
 * Fills `pool` from the runtime's CSPRNG. Web Crypto's `getRandomValues` fills at most 65,536 bytes per
 * call (W3C Web Crypto, "getRandomValues": QuotaExceededError above that), so a larger pool is filled in
 * slices. It is the CSPRNG every runtime here exposes alike (Node ≥ 19, Bun, Deno, browsers); in Node it
 * is the same OpenSSL generator as `crypto.randomFillSync`, so one call serves servers and browsers.
 */
export function fillRandom(pool: Uint8Array<ArrayBuffer>): void {
  for (let at = 0; at < pool.length; at += 65_536)
    globalThis.crypto.getRandomValues(pool.subarray(at, at + 65_536))
}

/** One way of turning pooled CSPRNG bytes into IDs, and what `info` says about it. */
export interface BuiltTechnique {
  readonly generate: () => string
  /** The technique in one line, for `info.wraps`. */
  readonly wraps: string
  /** Where the bits come from and how many of them an ID uses, for `info.randomness`. */
  readonly randomness: string
  /** CSPRNG bytes fetched per refill, for `info.poolBytes`. */
  readonly poolBytes: number
}

/** What every technique is built from: the ID's shape and how many IDs one refill makes. */
export interface TechniqueShape {
  /** Random bytes an ID encodes (a multiple of 3): 24 for the default 32 characters. */
  readonly bytes: number
  /** Characters per ID: `bytes` × 4 ÷ 3. */
  readonly length: number
  /** IDs made per refill of the pool. */
  readonly ids: number
}
