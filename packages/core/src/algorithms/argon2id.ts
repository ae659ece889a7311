import type { KdfProfile } from '../kdf-format.js'

/**
 * argon2id (RFC 9106) as the reference implementation and its bindings write it:
 * `$argon2id$v=19$m=,t=,p=$salt$hash`.
 */
export const ARGON2ID: KdfProfile = {
  id: 'argon2id',
  params: {
    m: { type: 'integer', min: 8, description: 'memory in KiB' },
    t: { type: 'integer', min: 1, description: 'passes over memory' },
    p: { type: 'integer', min: 1, description: 'lanes; part of the hash, changing it changes the output' },
  },
  // node-argon2 and @node-rs/argon2 name them memoryCost/timeCost/parallelism; hash-wasm memorySize/iterations.
  aliases: {
    memoryCost: 'm',
    memorySize: 'm',
    memory: 'm',
    timeCost: 't',
    iterations: 't',
    passes: 't',
    parallelism: 'p',
    lanes: 'p',
  },
  // OWASP Password Storage Cheat Sheet: "m=19456 (19 MiB), t=2, p=1".
  defaults: { m: 19456, t: 2, p: 1 },
  // The Argon2 specification (v1.3) and its reference implementation (argon2.h ARGON2_MIN_SALT_LENGTH,
  // ARGON2_MIN_OUTLEN): a salt of 8 bytes or more, a tag of 4 or more (RFC 9106 §3.1 T ≥ 4). Every
  // binding enforces them, each with its own untyped error.
  deriveLimits: { minSaltBytes: 8, minLength: 4 },
  // 1 GiB (in KiB) is 55× OWASP's memory; t and p far above any published recommendation.
  caps: { m: 2 ** 20, t: 64, p: 16 },
  // 2^20 KiB-passes (e.g. m=256 MiB, t=4: 27× OWASP's work) is under a second of native argon2 on the
  // 2-core reference box; 256 MiB of memory.
  budget: { units: 2 ** 20, memoryBytes: 2 ** 28 },
  // RFC 9106 §3.2: t passes fill m 1 KiB blocks; the p lanes split the blocks, they do not add to them.
  work: (params) => ({
    units: (params.m as number) * (params.t as number),
    memoryBytes: (params.m as number) * 1024,
  }),
  unit: 'KiB-passes (m·t)',
  bench: [
    { label: 'argon2id OWASP m=19456 t=2 p=1', params: { m: 19456, t: 2, p: 1 }, quick: true },
    // OWASP's passes and lanes at 64 MiB, in quick runs too: an implementation's CPU per hash need not
    // grow in proportion to memory (OpenSSL's argon2 pays a page fault per 4 KiB page above glibc's mmap
    // threshold, 32 MiB at most), so the OWASP size alone does not tell what a larger one costs.
    { label: 'argon2id m=65536 t=2 p=1', params: { m: 65536, t: 2, p: 1 }, quick: true },
    // The `argon2` package's (node-argon2's) defaults, what `argon2.hash(password)` runs: every
    // implementation at the same parameters, so a library's defaults are never compared with another's.
    {
      label: 'argon2id node-argon2 defaults m=65536 t=3 p=4',
      params: { m: 65536, t: 3, p: 4 },
      quick: false,
    },
  ],
  baseline: '@authlab/hash-argon2',
  absurd: [
    { label: 'm=4 GiB', edit: (h) => h.replace(/m=\d+/, 'm=4194304') },
    { label: 't=10^6', edit: (h) => h.replace(/t=\d+/, 't=1000000') },
    {
      label: 'm=2^20 t=64: each within its cap, 1 GiB × 64 passes together',
      edit: (h) => h.replace(/m=\d+/, 'm=1048576').replace(/t=\d+/, 't=64'),
    },
  ],
  vectors: { encoded: 'ARGON2ID_VECTORS' },
  testParams: { cheap: { m: 256, t: 2, p: 1 }, stronger: { m: 512, t: 3, p: 1 } },
  phc: {
    version: 19,
    // The `argon2` npm package (node-argon2, via @phc/format) writes `m=,p=,t=`: its hashes must verify.
    anyParamOrder: true,
    // RFC 9106 §3.1: memory size m ≥ 8·p KiB.
    invalid: (params) =>
      (params.m as number) < 8 * (params.p as number) ? 'argon2 needs m ≥ 8·p (RFC 9106 §3.1)' : undefined,
  },
}
