import type { Password } from '@authlab/core'

/**
 * Unicode NFKC, the form better-auth hashes (@better-auth/utils `password.ts`) and the one NIST SP
 * 800-63B §5.1.1.2 recommends before hashing: a full-width `ｐａｓｓ`, a ligature `ﬁ` or a decomposed
 * `é` (e + U+0301) is the same password as `pass`, `fi` or `é` typed on another keyboard. Bytes are the
 * caller's own encoding and pass unchanged.
 */
export function normalizePassword(password: Password): Password {
  return typeof password === 'string' ? password.normalize('NFKC') : password
}
