import { InvalidHashError, PasswordPolicyError } from './errors.js'
import type { Password } from './hash.js'

/** RFC 4648 §4 standard alphabet: the PHC string format's "B64" (used without `=` padding). */
export const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/**
 * passlib's "adapted base64" (ab64): the standard alphabet with `.` for `+`, unpadded, so a value
 * never collides with the `$` and `,` separators of modular crypt strings (passlib.utils.binary).
 */
export const AB64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789./'

const encoder = new TextEncoder()

/**
 * A password as bytes: strings are UTF-8 encoded without normalization, bytes pass through.
 * A string with a lone surrogate is refused: TextEncoder would silently turn it into U+FFFD, so two
 * different passwords would share one hash.
 */
export function passwordToBytes(password: Password): Uint8Array {
  if (password instanceof Uint8Array) return password
  if (typeof password !== 'string') {
    throw new PasswordPolicyError(`a password must be a string or a Uint8Array, got ${typeof password}`)
  }
  // In a `u` regex, \p{Cs} matches only unpaired surrogates (paired ones form one code point).
  if (/\p{Cs}/u.test(password)) {
    throw new PasswordPolicyError('the password contains a lone UTF-16 surrogate and has no UTF-8 form')
  }
  return encoder.encode(password)
}

/** Unpadded base64 in the given alphabet (RFC 4648 §3.2 allows omitting padding when the length is known). */
export function encodeBase64(bytes: Uint8Array, alphabet: string = BASE64_ALPHABET): string {
  let out = ''
  let i = 0
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number)
    out +=
      alphabet.charAt(n >> 18) +
      alphabet.charAt((n >> 12) & 63) +
      alphabet.charAt((n >> 6) & 63) +
      alphabet.charAt(n & 63)
  }
  const rest = bytes.length - i
  if (rest === 1) {
    const n = (bytes[i] as number) << 16
    out += alphabet.charAt(n >> 18) + alphabet.charAt((n >> 12) & 63)
  } else if (rest === 2) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8)
    out += alphabet.charAt(n >> 18) + alphabet.charAt((n >> 12) & 63) + alphabet.charAt((n >> 6) & 63)
  }
  return out
}

const decodeTables = new Map<string, Int8Array>()

function decodeTable(alphabet: string): Int8Array {
  let table = decodeTables.get(alphabet)
  if (!table) {
    table = new Int8Array(128).fill(-1)
    for (let i = 0; i < 64; i++) table[alphabet.charCodeAt(i)] = i
    decodeTables.set(alphabet, table)
  }
  return table
}

/**
 * Strict unpadded base64 decoding: only alphabet characters, no `=`, no length ≡ 1 (mod 4), and the
 * unused low bits of the last character must be zero (RFC 4648 §3.5 "canonical encoding"), so each
 * byte string has exactly one accepted text form. Anything else is an InvalidHashError.
 */
export function decodeBase64(
  text: string,
  alphabet: string = BASE64_ALPHABET,
  what = 'base64 field',
): Uint8Array {
  if (text.length % 4 === 1) throw new InvalidHashError(`${what}: impossible base64 length ${text.length}`)
  const table = decodeTable(alphabet)
  const out = new Uint8Array(Math.floor((text.length * 3) / 4))
  let buffer = 0
  let bits = 0
  let o = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    const value = code < 128 ? (table[code] as number) : -1
    if (value < 0) throw new InvalidHashError(`${what}: the character at offset ${i} is not base64`)
    buffer = ((buffer << 6) | value) & 0xffffff
    bits += 6
    if (bits >= 8) {
      bits -= 8
      out[o++] = (buffer >> bits) & 0xff
    }
  }
  if ((buffer & ((1 << bits) - 1)) !== 0)
    throw new InvalidHashError(`${what}: non-canonical base64 (trailing bits set)`)
  return out
}

/**
 * Equality of two byte strings in time that depends only on the longer length, never on where they
 * first differ (the timing side channel OWASP's Password Storage Cheat Sheet warns about). Lengths are
 * public here (they come from the stored hash), so unequal lengths simply make the result false.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  const length = Math.max(a.length, b.length)
  let difference = a.length ^ b.length
  for (let i = 0; i < length; i++) difference |= (a[i] ?? 0) ^ (b[i] ?? 0)
  return difference === 0
}
