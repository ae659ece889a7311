import { BCRYPT, BCRYPT_PASSWORD_POLICY, type Password, passwordToBytes } from '@authlab/core'
import { BETTER_AUTH_SCRYPT } from './better-auth.js'
import { inForm, type PasswordForm } from './normalize.js'

/**
 * The form an unmarked stored hash was made from, by format: a format whose maker normalised passwords
 * before hashing declares it here, and the context then checks (and upgrades) its hashes in that
 * form. Every other unmarked hash is of the password as typed. better-auth's default `saltHex:keyHex`
 * is NFKC (`password.normalize("NFKC")` in @better-auth/utils `hashPassword` and `verifyPassword`).
 */
const FORM_OF_UNMARKED: Readonly<Record<string, PasswordForm>> = Object.freeze({
  [BETTER_AUTH_SCRYPT]: 'NFKC',
})

/** How an unmarked hash of `family` was made (see FORM_OF_UNMARKED). */
export const formOfUnmarked = (family: string): PasswordForm => FORM_OF_UNMARKED[family] ?? 'typed'

/** Who made a stored hash, as far as checking it goes: its format family, and the form it hashed. */
export interface MadeBy {
  readonly family: string
  readonly form: PasswordForm
}

/**
 * The password as the maker of a stored hash took it: in the form its marker names, or its format
 * declares (better-auth's NFKC), or as typed (see `PasswordForm`). Each hash is checked against that
 * one form, so it accepts exactly the spellings its maker accepted. A bcrypt key is at most 72 bytes
 * (Provos & Mazières 1999, §6), and the implementations most stored bcrypt hashes come from (OpenBSD's,
 * crypt_blowfish, node.bcrypt.js, bcryptjs) used the first 72 bytes of a longer password: those bytes
 * are what its hash checks.
 */
export function asMadeBy({ family, form }: MadeBy, password: Password): Password {
  const input = inForm(password, form)
  return family === BCRYPT.id ? passwordToBytes(input).subarray(0, BCRYPT_PASSWORD_POLICY.maxBytes) : input
}
