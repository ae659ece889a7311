// What Workers bundlers resolve for this package (the "workerd" export condition): the same client
// over the runtime's fetch, since a Worker has no sockets for undici. With it a Worker on a plan whose
// CPU limit cannot fit scrypt hands that step to the helper and spends only a signed request's CPU.
import { defineRemoteScrypt, type RemoteScrypt, type RemoteScryptOptions } from './client.js'
import { fetchTransport } from './transport.js'

export * from '@authlab/core/errors'

export type { RemoteScrypt, RemoteScryptOptions, RemoteScryptStats } from './client.js'
export { type BackoffOptions, createRetryBudget, type RetryBudgetOptions } from './retry.js'
export { MIN_SECRET_BYTES, SIGNATURE_HEADERS, type SignedParts, secretBytes, signatureOf } from './signing.js'

/** The fxa-scrypt-helper client over `fetch`; `connections` has no effect (the runtime pools). */
export function createRemoteScrypt(options: RemoteScryptOptions): RemoteScrypt {
  return defineRemoteScrypt(options, fetchTransport)
}
