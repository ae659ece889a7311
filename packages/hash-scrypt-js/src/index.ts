import {
  type ConcurrencyBoundOptions,
  defineKdfHasher,
  type KdfHasher,
  SCRYPT,
  type ScryptOptions,
} from '@authlab/core'
// scrypt-js is CommonJS behind a UMD wrapper that Node's ESM loader cannot scan for named exports:
// take the whole module object (the default import) and read `scrypt` from it.
import scryptJs from 'scrypt-js'

// Apps branch on these errors' codes; re-exported so a login route needs only this package.
export * from '@authlab/core/errors'

/** scrypt's options, and `maxConcurrent`: derivations in flight at once (default 4). */
export type ScryptJsOptions = ScryptOptions & ConcurrencyBoundOptions

/**
 * Each derivation holds scrypt's V, 128·N·r bytes (RFC 7914 §5: 128 MiB at OWASP's N=2^17, r=8), on
 * this thread until it ends, and derivations in flight share the thread: more of them add memory and
 * latency, never throughput. Past this many, a login is refused with an OverloadError (HTTP 503).
 */
const DEFAULT_MAX_CONCURRENT = 4

// Passing a progress callback makes scrypt-js yield to the event loop every 1000/r ROMix steps
// (via setImmediate) instead of running the whole hash in one block: the work still takes the main
// thread, but other requests get served between chunks.
const yieldBetweenChunks = () => undefined

/**
 * scrypt (RFC 7914) in pure JavaScript with scrypt-js: no native code or WASM, so it runs anywhere,
 * at the cost of doing all its work on the main thread. Same `$scrypt$ln=,r=,p=$` strings as
 * @authlab/hash-scrypt (node:crypto) and passlib: each verifies the other's hashes.
 */
export function createHasher(options?: ScryptJsOptions): KdfHasher {
  return defineKdfHasher({
    algorithm: SCRYPT,
    describe: {
      name: '@authlab/hash-scrypt-js',
      displayName: 'scrypt (pure JS)',
      wraps: 'scrypt-js@3 (async, chunked)',
      runsOn: 'main-thread',
    },
    kdf: (password, salt, params, length) =>
      scryptJs.scrypt(
        password,
        salt,
        2 ** (params.ln as number),
        params.r as number,
        params.p as number,
        length,
        yieldBetweenChunks,
      ),
    options,
    maxConcurrent: DEFAULT_MAX_CONCURRENT,
  })
}

/** Ready with the OWASP parameters N=2^17, r=8, p=1: `await hasher.hash(password)`. */
export const hasher: KdfHasher = createHasher()
