import type { Password } from '@authlab/core'

/**
 * What a stored hash was made from: the password as its owner typed it, or one of its Unicode
 * normalisation forms (UAX #15). A hash verifies only the form it was made from, so the context checks
 * each stored hash against the form of whoever made it:
 * - `NFC` (canonical composition): what the context writes for a new password. NIST SP 800-63B-4
 *   §3.1.1.2 says verifiers SHOULD apply NFC, and RFC 8265's OpaqueString profile (§4.2) prescribes it
 *   for passwords. It makes one password of canonically equivalent spellings, which render alike and
 *   which keyboards and operating systems produce interchangeably (a composed `é`, U+00E9, and `e` +
 *   U+0301), and keeps apart the compatibility characters users type on purpose: `²` (AZERTY), `µ`
 *   (AltGr+M), full-width digits, `ﬁ`.
 * - `NFKC` (compatibility composition): what better-auth hashes (@better-auth/utils `password.ts`), and
 *   what SP 800-63B's third revision (§5.1.1.2) recommended. It also folds `²` into `2`, full-width
 *   `ｐａｓｓ` into `pass`, `ﬁ` into `fi`, `µ` into `μ`.
 * - `typed`: no normalisation, what node-argon2, passlib, bcrypt exports (Auth0, Django, Rails) and
 *   authlab's own hashers used alone take.
 */
export type PasswordForm = 'typed' | 'NFC' | 'NFKC'

/** A string password in `form`; bytes are the caller's own encoding and pass unchanged. */
export function inForm(password: Password, form: PasswordForm): Password {
  return typeof password === 'string' && form !== 'typed' ? password.normalize(form) : password
}

/**
 * The marker the context writes before every hash it makes, naming the form the hash was made from.
 * Nothing else writes it, so a hash without one was made elsewhere: from the password as typed, unless
 * its format declares otherwise (`made-from.ts`). The marker is the whole of the difference from
 * the format the hasher writes: strip it, apply the form, and any verifier of that format reads the
 * hash. Neither marker can start a hash of another format: `n` and `:` begin no modular-crypt, PHC or
 * hex format, and better-auth's `saltHex:keyHex` has 32 hex digits before its colon.
 */
const MARKERS = { NFC: 'nfc:', NFKC: 'nfkc:' } as const

export type NormalForm = keyof typeof MARKERS

/** A stored hash with its marker read: the hash its hasher reads, and the form the marker names. */
export interface MarkedHash {
  readonly hash: string
  readonly form: NormalForm | undefined
}

export function readMarker(stored: string): MarkedHash {
  for (const form of ['NFC', 'NFKC'] as const) {
    if (stored.startsWith(MARKERS[form])) return { hash: stored.slice(MARKERS[form].length), form }
  }
  return { hash: stored, form: undefined }
}

export function withMarker(form: NormalForm, hash: string): string {
  return `${MARKERS[form]}${hash}`
}
