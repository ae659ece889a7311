import { defineRemoteScrypt, type RemoteScrypt, type RemoteScryptOptions } from './client.js'
import { undiciTransport } from './undici.js'

// Apps branch on these errors' codes; re-exported so a login route needs only this package.
export * from '@authlab/core/errors'

export type { RemoteScrypt, RemoteScryptOptions, RemoteScryptStats } from './client.js'
export { type BackoffOptions, createRetryBudget, type RetryBudgetOptions } from './retry.js'
export { MIN_SECRET_BYTES, SIGNATURE_HEADERS, type SignedParts, secretBytes, signatureOf } from './signing.js'

/**
 * The scrypt step of a key-stretching chain, done by a helper service speaking Mozilla's
 * fxa-scrypt-helper protocol (POST `{ input: hex, salt, N, r, p, buflen }` → `{ output: hex }`):
 * the "server relief" pattern, where a weak client hands its most expensive step to a server.
 * `createStretcher({ scrypt: createRemoteScrypt({ url, secret }) })` with @authlab/stretch-onepw.
 *
 * Requests travel over an undici keep-alive pool; inside Cloudflare Workers (the package's "workerd"
 * export) over the runtime's fetch. Every call ends, within `timeoutMs`, with the key or a typed
 * error: ERR_AUTHLAB_REMOTE_UNAVAILABLE (refused, reset, overloaded after the allowed retries),
 * _REJECTED (the helper refused the request: signature, parameters), _TIMEOUT, or _BAD_RESPONSE
 * (anything but a key of the requested length).
 */
export function createRemoteScrypt(options: RemoteScryptOptions): RemoteScrypt {
  return defineRemoteScrypt(options, undiciTransport)
}
