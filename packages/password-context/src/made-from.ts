import { BETTER_AUTH_SCRYPT } from './better-auth.js'
import type { PasswordForm } from './normalize.js'

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
