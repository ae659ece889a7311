import type { KdfParams, KdfProfile } from '../kdf-format.js'

const N = (params: KdfParams) => 2 ** (params.ln as number)

/**
 * scrypt (RFC 7914), stored as passlib writes it: `$scrypt$ln=17,r=8,p=1$<salt>$<hash>`
 * (passlib.handlers.scrypt), so hashes move between hash-scrypt, hash-scrypt-js, hash-wasm and passlib.
 */
export const SCRYPT: KdfProfile = {
  id: 'scrypt',
  params: {
    ln: { type: 'integer', min: 1, description: 'log2 of the CPU/memory cost N' },
    r: { type: 'integer', min: 1, description: 'block size' },
    p: { type: 'integer', min: 1, description: 'parallelization' },
  },
  // Node's crypto.scrypt and scrypt-js take N; hash-wasm calls r and p blockSize and parallelism.
  aliases: { N: 'ln', cost: 'ln', costFactor: 'ln', blockSize: 'r', parallelization: 'p', parallelism: 'p' },
  // OWASP Password Storage Cheat Sheet: "N=2^17 (128 MiB), r=8 (1024 bytes), p=1".
  defaults: { ln: 17, r: 8, p: 1 },
  // ln 20 is 8× OWASP's N; r and p far above any published recommendation.
  caps: { ln: 20, r: 32, p: 16 },
  // 2^21 = 2× OWASP's work, about a second of native scrypt on the 2-core reference box; 256 MiB is
  // twice OWASP's 128 MiB V array.
  budget: { units: 2 ** 21, memoryBytes: 2 ** 28 },
  // RFC 7914 §5 scryptROMix: 2·N BlockMix calls of 2r Salsa20/8 cores, p times; its V array is N
  // blocks of 128·r bytes (the B array, 128·r·p bytes, is at most 64 KiB within the caps).
  work: (params) => ({
    units: N(params) * (params.r as number) * (params.p as number),
    memoryBytes: 128 * (params.r as number) * N(params),
  }),
  unit: 'N·r·p',
  bench: [
    // better-auth's default hasher (@better-auth/utils password.ts: N=16384, r=16, p=1): its bench row
    // runs only here, beside every scrypt implementation at the same parameters. It is the quick run's
    // scrypt setting: the same memory (128·N·r = 32 MiB) and work as N=2^15 r=8, and the one most
    // users of a framework meet.
    { label: 'scrypt better-auth N=2^14 r=16 p=1', params: { ln: 14, r: 16, p: 1 }, quick: true },
    { label: 'scrypt N=2^15 r=8 p=1', params: { ln: 15, r: 8, p: 1 }, quick: false },
    { label: 'scrypt N=2^16 r=8 p=1', params: { ln: 16, r: 8, p: 1 }, quick: false },
    { label: 'scrypt N=2^17 r=8 p=1', params: { ln: 17, r: 8, p: 1 }, quick: false },
  ],
  baseline: '@authlab/hash-scrypt',
  absurd: [
    { label: 'N=2^30', edit: (h) => h.replace(/ln=\d+/, 'ln=30') },
    { label: 'r=2^20 (128·N·r memory)', edit: (h) => h.replace(/r=\d+/, 'r=1048576') },
    {
      label: 'ln=20 r=8 p=16: every parameter within its cap, 1 GiB and 2^27 units together',
      edit: (h) => h.replace(/ln=\d+,r=\d+,p=\d+/, 'ln=20,r=8,p=16'),
    },
  ],
  vectors: { encoded: 'SCRYPT_VECTORS', kdf: 'SCRYPT_KDF_VECTORS' },
  testParams: { cheap: { ln: 10, r: 8, p: 1 }, stronger: { ln: 11, r: 8, p: 2 } },
  phc: {
    // RFC 7914 §2: p ≤ (2^32 − 1)·hLen / MFLen, i.e. r·p < 2^30.
    invalid: (params) =>
      (params.r as number) * (params.p as number) >= 2 ** 30
        ? 'scrypt needs r·p < 2^30 (RFC 7914 §2)'
        : undefined,
  },
}
