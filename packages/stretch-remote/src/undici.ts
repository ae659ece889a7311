import { RemoteBadResponseError, RemoteUnavailableError } from '@authlab/core'
import { Pool } from 'undici'
import { ConnectionFailure, readCapped, type Transport } from './transport.js'

/** Connection failures worth another attempt (undici's and Node's socket error codes). */
const RETRYABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
])

/** The helper through an undici keep-alive pool of `connections` sockets (Node, Bun, Deno). */
export function undiciTransport(origin: string, connections: number): Transport {
  const pool = new Pool(origin, { connections, pipelining: 1 })
  return {
    name: 'undici',
    async post(path, headers, body, signal) {
      let response: Awaited<ReturnType<Pool['request']>>
      try {
        response = await pool.request({ method: 'POST', path, headers, body, signal })
      } catch (error) {
        if (signal.aborted) throw signal.reason
        const code = (error as { code?: unknown }).code
        if (typeof code === 'string' && RETRYABLE_CODES.has(code)) {
          throw new ConnectionFailure(`cannot reach the helper (${code})`, 0, { cause: error })
        }
        throw new RemoteUnavailableError(`request to the helper failed: ${(error as Error).message}`, {
          cause: error,
        })
      }
      const text = await readCapped(response.body, () => response.body.destroy()).catch((error: unknown) => {
        if (signal.aborted) throw signal.reason
        if (error instanceof RemoteBadResponseError) throw error
        throw new ConnectionFailure('the connection closed mid-answer', 0, { cause: error })
      })
      return { status: response.statusCode, retryAfter: response.headers['retry-after'], text }
    },
    close: () => pool.close(),
  }
}
