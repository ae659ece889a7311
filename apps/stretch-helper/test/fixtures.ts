import { randomBytes } from 'node:crypto'
import { SIGNATURE_HEADERS, signatureOf } from '@authlab/stretch-remote'

export const SECRET = 'test-secret-for-the-stretch-helper-0123456789'
export const ONEPW_SALT = 'identity.mozilla.com/picl/v1/scrypt'

export const onepwBody = (input = 'ab'.repeat(32)) =>
  JSON.stringify({ input, salt: ONEPW_SALT, N: 65536, r: 8, p: 1, buflen: 32 })

/** Headers of a correctly signed POST /, with any field replaced to forge a bad one. */
export function signedHeaders(
  body: string,
  { secret = SECRET, timestamp = String(Date.now()), nonce = randomBytes(16).toString('base64url') } = {},
): Record<string, string> {
  return {
    'content-type': 'application/json',
    [SIGNATURE_HEADERS.timestamp]: timestamp,
    [SIGNATURE_HEADERS.nonce]: nonce,
    [SIGNATURE_HEADERS.signature]: signatureOf(Buffer.from(secret), {
      method: 'POST',
      path: '/',
      timestamp,
      nonce,
      body,
    }),
  }
}
