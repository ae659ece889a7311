import { timingSafeEqual } from 'node:crypto'
import { SIGNATURE_HEADERS, signatureOf } from '@authlab/stretch-remote'
import type { FastifyRequest } from 'fastify'
import { createNonceCache } from './nonce-cache.js'

export interface AuthOptions {
  secret: Uint8Array
  /** How far a request's timestamp may be from the helper's clock, either way. */
  replayWindowMs: number
  nonceCacheSize: number
}

/** An HTTP error fastify's error handler turns into `{ statusCode, error, message }`. */
export function httpError(statusCode: number, message: string): Error & { statusCode: number } {
  return Object.assign(new Error(message), { statusCode })
}

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name]
  return typeof value === 'string' ? value : undefined
}

/**
 * Checks the three authentication headers in two steps: their shape and the timestamp's freshness
 * before the body is read (so a stale or unsigned request costs no body parsing), then the HMAC
 * over the exact body bytes and the nonce's first use. None of this runs scrypt: an unauthenticated
 * request costs the helper one HMAC at most.
 *
 * The timestamp is checked again when the body has arrived, at the instant the nonce is recorded. A
 * nonce is remembered while its request's timestamp could still pass that check; checked only at the
 * headers, a captured request whose body was held back until its nonce had been forgotten was
 * answered again.
 */
export function createAuthenticator({ secret, replayWindowMs, nonceCacheSize }: AuthOptions) {
  const nonces = createNonceCache(replayWindowMs, nonceCacheSize)
  const checkFresh = (timestamp: string, now: number) => {
    if (Math.abs(now - Number(timestamp)) > replayWindowMs) {
      throw httpError(401, 'timestamp outside the replay window')
    }
  }

  return {
    checkHeaders(request: FastifyRequest): void {
      const timestamp = header(request, SIGNATURE_HEADERS.timestamp)
      const nonce = header(request, SIGNATURE_HEADERS.nonce)
      const signature = header(request, SIGNATURE_HEADERS.signature)
      if (!timestamp || !/^\d{1,16}$/.test(timestamp)) throw httpError(401, 'missing or malformed timestamp')
      if (!nonce || !/^[A-Za-z0-9_-]{16,64}$/.test(nonce)) throw httpError(401, 'missing or malformed nonce')
      if (!signature || !/^[0-9a-f]{64}$/.test(signature))
        throw httpError(401, 'missing or malformed signature')
      checkFresh(timestamp, Date.now())
    },

    checkSignature(request: FastifyRequest, body: string): void {
      const timestamp = header(request, SIGNATURE_HEADERS.timestamp) ?? ''
      const nonce = header(request, SIGNATURE_HEADERS.nonce) ?? ''
      const path = request.url
      const expected = signatureOf(secret, { method: request.method, path, timestamp, nonce, body })
      const given = Buffer.from(header(request, SIGNATURE_HEADERS.signature) ?? '', 'hex')
      if (given.length !== 32 || !timingSafeEqual(given, Buffer.from(expected, 'hex'))) {
        throw httpError(401, 'bad signature')
      }
      // Recorded only once the signature holds, so unsigned traffic cannot fill the cache; and only
      // while the timestamp is fresh at this same instant, so the entry outlives every time it could pass.
      const now = Date.now()
      checkFresh(timestamp, now)
      const seen = nonces.record(nonce, now)
      if (seen === 'replay') throw httpError(401, 'nonce already used')
      if (seen === 'full') {
        // RFC 9110 §10.2.3: when the oldest nonce expires there is room again.
        const seconds = Math.max(1, Math.ceil(nonces.msUntilRoom(now) / 1000))
        throw Object.assign(httpError(503, 'too many requests in the replay window'), {
          retryAfterSeconds: seconds,
        })
      }
    },
  }
}
