import { createHmac, randomBytes } from 'node:crypto'
import { InvalidOptionError } from '@authlab/core'

/** Where a signed request carries its authentication. */
export const SIGNATURE_HEADERS = Object.freeze({
  timestamp: 'x-authlab-timestamp',
  nonce: 'x-authlab-nonce',
  signature: 'x-authlab-signature',
})

/**
 * RFC 2104 §3: an HMAC key shorter than the hash output (32 bytes for SHA-256) weakens it, so a
 * shared secret must carry at least that much.
 */
export const MIN_SECRET_BYTES = 32

export interface SignedParts {
  readonly method: string
  readonly path: string
  /** Milliseconds since the Unix epoch, as decimal digits. */
  readonly timestamp: string
  readonly nonce: string
  /** The exact body bytes sent (a re-serialised body would not match). */
  readonly body: string
}

export function secretBytes(secret: string | Uint8Array): Uint8Array {
  const bytes = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : secret
  if (!(bytes instanceof Uint8Array) || bytes.length < MIN_SECRET_BYTES) {
    throw new InvalidOptionError(`the shared secret must be at least ${MIN_SECRET_BYTES} bytes`)
  }
  return bytes
}

/**
 * HMAC-SHA256 over method, path, timestamp, nonce and body, each on its own line. Binding the
 * timestamp and nonce lets the helper refuse a captured request replayed later (OWASP REST Security
 * Cheat Sheet); binding method and path stops a signature being reused on another route.
 */
export function signatureOf(secret: Uint8Array, parts: SignedParts): string {
  return createHmac('sha256', secret)
    .update(`${parts.method}\n${parts.path}\n${parts.timestamp}\n${parts.nonce}\n`)
    .update(parts.body)
    .digest('hex')
}

/** Headers for one attempt: a fresh timestamp and 128-bit nonce every time, so a retry is never a replay. */
export function signedHeaders(
  secret: Uint8Array,
  method: string,
  path: string,
  body: string,
): Record<string, string> {
  const timestamp = String(Date.now())
  const nonce = randomBytes(16).toString('base64url')
  return {
    [SIGNATURE_HEADERS.timestamp]: timestamp,
    [SIGNATURE_HEADERS.nonce]: nonce,
    [SIGNATURE_HEADERS.signature]: signatureOf(secret, { method, path, timestamp, nonce, body }),
  }
}
