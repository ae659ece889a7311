/**
 * The OWASP Password Storage Cheat Sheet's settings, in the option keys of the hashers (`info.params`),
 * kept once so that every package implementing an algorithm (native, WASM, pure JS, worker) defaults to
 * the same cost. bcrypt's default lives with its parser (DEFAULT_BCRYPT_COST in bcrypt-format.ts).
 */
export const OWASP_DEFAULT_PARAMS = Object.freeze({
  /** "m=19456 (19 MiB), t=2, p=1": memory in KiB, passes, lanes. */
  argon2id: Object.freeze({ m: 19456, t: 2, p: 1 }),
  /** "N=2^17 (128 MiB), r=8, p=1", written as ln = log2 N like passlib's `$scrypt$ln=17`. */
  scrypt: Object.freeze({ ln: 17, r: 8, p: 1 }),
  /** "PBKDF2-HMAC-SHA256: 600,000 iterations". */
  'pbkdf2-sha256': Object.freeze({ iterations: 600_000 }),
})
