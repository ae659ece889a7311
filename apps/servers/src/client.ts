import { type Agent, request as httpRequest, type IncomingMessage } from 'node:http'
import { SESSION_COOKIE_NAME } from './options.js'

export interface ClientRequest {
  method?: 'GET' | 'POST'
  path?: string
  /** The whole `Cookie` header value, sent verbatim (hostile values included). */
  cookie?: string
  /** Sent as JSON unless it is already a string. */
  body?: unknown
  headers?: Record<string, string>
  agent?: Agent
  /** Abandons the request (rejecting with a `RequestTimeoutError`) when no full answer came within this time. */
  timeoutMs?: number
}

/** A request `send` gave up on because its answer did not arrive within `timeoutMs`. */
export class RequestTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`)
    this.name = 'RequestTimeoutError'
  }
}

export interface ClientResponse {
  readonly status: number
  readonly json: Record<string, unknown> | undefined
  readonly text: string
  /** `name=value` of the session cookie the server set, ready to send back; undefined when none was set. */
  readonly sessionCookie: string | undefined
}

/**
 * A bare node:http client. fetch (undici) validates and rewrites headers, so it cannot send the
 * malformed or oversized cookies the hostile-input tests need; node:http sends them as given.
 *
 * A GET that fails with ECONNRESET on a kept-alive socket before any answer arrived is sent once more on
 * a new socket: the server closed the idle socket as the request left, so the request never reached it.
 * Only GET is retried, as a browser does (RFC 9110 §9.2.2: a client may retry an idempotent request
 * whose connection closed before the response).
 *
 * An answer that says `Connection: close` and is followed by a reset is that answer: a server refusing
 * a request it did not read to the end (431 for an oversized header) closes with the rest unread, and
 * the kernel turns that close into a reset (Node 24 and later report it after the response head).
 */
export async function send(baseUrl: string, options: ClientRequest = {}): Promise<ClientResponse> {
  try {
    return await sendOnce(baseUrl, options)
  } catch (error) {
    if (!(error instanceof StaleSocketError)) throw error
    return sendOnce(baseUrl, options)
  }
}

/** ECONNRESET on a reused keep-alive socket before any response byte: safe to send a GET again. */
class StaleSocketError extends Error {
  constructor(cause: unknown) {
    super('the kept-alive socket was closed by the server before the request reached it', { cause })
  }
}

function sendOnce(baseUrl: string, options: ClientRequest): Promise<ClientResponse> {
  const { method = 'GET', path = '/', cookie, body, headers = {}, agent, timeoutMs } = options
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)
  const allHeaders: Record<string, string | number> = { ...headers }
  if (cookie !== undefined) allHeaders.cookie = cookie
  if (payload !== undefined) {
    allHeaders['content-type'] ??= 'application/json'
    allHeaders['content-length'] = Buffer.byteLength(payload)
  }
  return new Promise((resolve, reject) => {
    let incoming: IncomingMessage | undefined
    const chunks: Buffer[] = []
    const answer = (response: IncomingMessage) => {
      const text = Buffer.concat(chunks).toString('utf8')
      const isJson = response.headers['content-type']?.includes('application/json') ?? false
      resolve({
        status: response.statusCode ?? 0,
        json: isJson && text.length > 0 ? (JSON.parse(text) as Record<string, unknown>) : undefined,
        text,
        sessionCookie: sessionCookieOf(response.headers['set-cookie']),
      })
    }
    const failed = (error: NodeJS.ErrnoException) => {
      if (incoming?.headers.connection === 'close' && error.code === 'ECONNRESET') return answer(incoming)
      const stale = method === 'GET' && outgoing.reusedSocket && error.code === 'ECONNRESET' && !incoming
      reject(stale ? new StaleSocketError(error) : error)
    }
    const outgoing = httpRequest(
      new URL(path, baseUrl),
      { method, headers: allHeaders, agent },
      (response) => {
        incoming = response
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('error', failed)
        response.on('end', () => answer(response))
      },
    )
    outgoing.on('error', failed)
    if (timeoutMs !== undefined) {
      const timer = setTimeout(() => outgoing.destroy(new RequestTimeoutError(timeoutMs)), timeoutMs)
      outgoing.once('close', () => clearTimeout(timer))
    }
    outgoing.end(payload)
  })
}

/** The `name=value` pair of the session cookie in a Set-Cookie list; undefined when absent or cleared. */
export function sessionCookieOf(setCookie: readonly string[] | undefined): string | undefined {
  const prefix = `${SESSION_COOKIE_NAME}=`
  const pair = setCookie?.find((line) => line.startsWith(prefix))?.split(';', 1)[0]
  return pair === undefined || pair === prefix ? undefined : pair
}
