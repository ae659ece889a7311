import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ListenOptions {
  /** Default 127.0.0.1: these servers exist for tests and benchmarks, never for a public interface. */
  host?: string
  /** Default 0: an ephemeral port. */
  port?: number
  /** Node's request-header cap (default 16 KiB); larger headers are refused with 431 before any route runs. */
  maxHeaderSize?: number
}

/** A listening server, the same shape for both frameworks. */
export interface RunningServer {
  readonly framework: 'fastify' | 'express'
  readonly url: string
  close(): Promise<void>
}

export function urlOf(server: Server): string {
  const { address, port } = server.address() as AddressInfo
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`
}
