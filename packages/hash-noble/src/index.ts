import {
  type ConcurrencyBoundOptions,
  defineKdfHasher,
  type KdfHasher,
  SCRYPT,
  type ScryptOptions,
} from '@authlab/core'
import { scryptAsync } from '@noble/hashes/scrypt.js'

// Apps branch on these errors' codes; re-exported so a login route needs only this package.
export * from '@authlab/core/errors'

/** scrypt's options, and `maxConcurrent`: derivations in flight at once (default 4). */
export type NobleScryptOptions = ScryptOptions & ConcurrencyBoundOptions

/**
 * Each derivation holds scrypt's V, 128·N·r bytes (RFC 7914 §5: 128 MiB at OWASP's N=2^17, r=8), on
 * this thread until it ends, and derivations in flight share the thread: more of them add memory and
 * latency, never throughput. Past this many, a login is refused with an OverloadError (HTTP 503).
 */
const DEFAULT_MAX_CONCURRENT = 4

/**
 * How long noble's scryptAsync computes before giving the event loop a turn. noble-hashes 2.x
 * `utils.ts` `asyncLoop` runs the synchronous work one iteration at a time, reads `Date.now()` after
 * each, and once `asyncTick` ms have passed awaits `nextTick()`: `scheduler.yield()` where the host has
 * it, else a `setTimeout(resolve, 0)`, so pending timers and I/O run before the next chunk. 10 ms is
 * noble's own default: other requests wait about that long per chunk, while the whole hash still runs
 * on this thread.
 */
const ASYNC_TICK_MS = 10

/**
 * scrypt (RFC 7914) through @noble/hashes: audited pure JavaScript that runs on any runtime and in
 * browsers. The PHC strings are core's, so hashes verify with @authlab/hash-scrypt (node:crypto) and
 * the other way round. noble's argon2id is not offered: one hash at OWASP's m=19456 t=2 p=1 took
 * about 27 times as long as the native @authlab/hash-argon2 (see the README).
 */
export function createHasher(options?: NobleScryptOptions): KdfHasher {
  return defineKdfHasher({
    algorithm: SCRYPT,
    describe: {
      name: '@authlab/hash-noble',
      displayName: 'scrypt (@noble/hashes, pure JS)',
      wraps: '@noble/hashes@2 scryptAsync (pure JS, chunked)',
      runsOn: 'main-thread',
    },
    kdf: (password, salt, params, dkLen) =>
      scryptAsync(password, salt, {
        N: 2 ** (params.ln as number),
        r: params.r as number,
        p: params.p as number,
        dkLen,
        asyncTick: ASYNC_TICK_MS,
        // What RFC 7914 §5 scryptROMix allocates (V: 128·N·r, B: 128·r·p) plus 1 MiB: noble's own
        // default limit is 1 GiB, and the profile's caps bound N, r and p before this is reached.
        maxmem: 128 * (params.r as number) * (2 ** (params.ln as number) + (params.p as number)) + 2 ** 20,
      }),
    options,
    maxConcurrent: DEFAULT_MAX_CONCURRENT,
  })
}

/** scrypt with the OWASP parameters N=2^17, r=8, p=1, in pure JS on the calling thread. */
export const hasher: KdfHasher = createHasher()
