import { BASE64_ALPHABET, decodeBase64, encodeBase64, InvalidHashError } from '@authlab/core'

const PADDED_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/**
 * Strict padded base64 (RFC 4648 §4), the form .NET's `Convert.ToBase64String`, Python's
 * `base64.b64encode`, Java's `Base64.getEncoder()` and Keycloak write: the padding must be exactly what
 * the length needs and the unused bits zero (§3.5), so each byte string has one accepted text.
 */
export function decodePaddedBase64(text: string, what: string): Uint8Array {
  if (!PADDED_BASE64.test(text) || text.length % 4 !== 0) {
    throw new InvalidHashError(`${what} is not padded standard base64`)
  }
  const bare = text.replace(/=+$/, '')
  const expectedPadding = (4 - (bare.length % 4)) % 4
  if (text.length - bare.length !== expectedPadding) {
    throw new InvalidHashError(`${what} has wrong base64 padding`)
  }
  return decodeBase64(bare, BASE64_ALPHABET, what)
}

/** Padded standard base64, as the stacks above write it. */
export function encodePaddedBase64(bytes: Uint8Array): string {
  const bare = encodeBase64(bytes)
  return bare + '='.repeat((4 - (bare.length % 4)) % 4)
}

const HEX = /^(?:[0-9a-fA-F]{2})+$/

/** Hex of any case (Spring's `Hex.decode` reads both), an even number of digits, at least one byte. */
export function decodeHex(text: string, what: string): Uint8Array {
  if (!HEX.test(text)) throw new InvalidHashError(`${what} is not hexadecimal bytes`)
  return Uint8Array.from(Buffer.from(text, 'hex'))
}

export const encodeHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

export const utf8 = (text: string) => new TextEncoder().encode(text)

/**
 * `length` characters drawn uniformly from `alphabet` (at most 256 characters) with the platform
 * CSPRNG: bytes at or above the largest multiple of the alphabet's size are drawn again, so no
 * character is likelier than another.
 */
export function randomString(alphabet: string, length: number): string {
  const limit = 256 - (256 % alphabet.length)
  let out = ''
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < limit && out.length < length) out += alphabet.charAt(byte % alphabet.length)
    }
  }
  return out
}

export const randomBytes = (length: number) => crypto.getRandomValues(new Uint8Array(length))
