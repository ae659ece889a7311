import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { InvalidOptionError } from '@authlab/core'

export interface ListenOptions {
  /** Default 127.0.0.1: these servers exist for tests and benchmarks, never for a public interface. */
  host?: string
  /** Default 0: an ephemeral port. */
  port?: number
  /** Node's request-header cap (default 16 KiB); larger headers are refused with 431 before any route runs. */
  maxHeaderSize?: number
  /** Time a client gets to send its complete request headers (default 10 s). */
  headersTimeoutMs?: number
  /** Time a client gets to send its complete request, body included (default 30 s). */
  requestTimeoutMs?: number
  /** Time an idle keep-alive connection stays open between requests (default 5 s, Node's own). */
  keepAliveTimeoutMs?: number
  /**
   * Most connections open at once (default: unbounded, Node's own); past it a new connection is closed
   * as soon as it is accepted, so held connections cannot take every file descriptor of the process.
   */
  maxConnections?: number
}

/**
 * A client that sends its headers a byte at a time holds a socket for as long as the server lets it
 * (the slowloris attack; OWASP Denial of Service Cheat Sheet). Node's own limits are 60 s for headers
 * and 300 s for a request, checked only every 30 s, so such a socket lived for up to 90 s. These bounds
 * are far above what a client on a slow link needs for a login body of at most 4 KiB.
 */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000
/** Node's default; stated so a caller sees the whole lifetime of a connection in one place. */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5000
/** How often Node checks the two timeouts above; a socket outlives its timeout by at most this. */
const TIMEOUT_CHECK_INTERVAL_MS = 1000

/** A listening server, the same shape for both frameworks. */
export interface RunningServer {
  readonly framework: 'fastify' | 'express'
  readonly url: string
  close(): Promise<void>
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new InvalidOptionError(`${name} must be a positive integer, got ${String(value)}`)
  return value
}

/** The node:http server both frameworks run on, with explicit header and request timeouts. */
export function createHttpServer(handler: RequestListener | undefined, options: ListenOptions = {}): Server {
  const {
    maxHeaderSize,
    headersTimeoutMs = DEFAULT_HEADERS_TIMEOUT_MS,
    requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs = DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
    maxConnections,
  } = options
  const headersTimeout = positiveInteger('headersTimeoutMs', headersTimeoutMs)
  const requestTimeout = positiveInteger('requestTimeoutMs', requestTimeoutMs)
  const keepAliveTimeout = positiveInteger('keepAliveTimeoutMs', keepAliveTimeoutMs)
  // Node requires headersTimeout ≤ requestTimeout; a shorter request timeout caps both.
  const server = createServer(
    {
      maxHeaderSize,
      headersTimeout: Math.min(headersTimeout, requestTimeout),
      requestTimeout,
      connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_INTERVAL_MS, headersTimeout),
    },
    handler,
  )
  server.keepAliveTimeout = keepAliveTimeout
  if (maxConnections !== undefined) server.maxConnections = positiveInteger('maxConnections', maxConnections)
  return server
}

export function urlOf(server: Server): string {
  const { address, port } = server.address() as AddressInfo
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`
}
